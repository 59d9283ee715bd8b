//! Buffers the fused pass hands back to itself. A trainer's steps allocate
//! the same shapes every time, and a vector fresh from the allocator is
//! zeroed first; a buffer the pass writes in full before reading it does not
//! need that. So such a buffer is [`take`]n from the vectors of its length
//! that an earlier pass gave back ([`give`]), one list per thread, and only
//! allocated when none is left.
//!
//! A taken vector holds whatever its last user wrote: every caller writes
//! each of its numbers before reading any. Introduced in chapter 7.

use std::cell::RefCell;
use std::collections::HashMap;

/// Vectors kept per length at most; past that, a given vector is freed.
const KEPT: usize = 64;

thread_local! {
    static SPARE: RefCell<HashMap<usize, Vec<Vec<f32>>>> = RefCell::new(HashMap::new());
}

/// A vector of `n` numbers with arbitrary contents, for a buffer written in
/// full before it is read.
pub fn take(n: usize) -> Vec<f32> {
    SPARE
        .with_borrow_mut(|s| s.get_mut(&n).and_then(Vec::pop))
        .unwrap_or_else(|| vec![0.0; n])
}

/// Hands `v` back for a later [`take`] of its length.
pub fn give(v: Vec<f32>) {
    if v.is_empty() {
        return;
    }
    SPARE.with_borrow_mut(|s| {
        let list = s.entry(v.len()).or_default();
        if list.len() < KEPT {
            list.push(v);
        }
    });
}
