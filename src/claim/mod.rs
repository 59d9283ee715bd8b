//! The book's claims as data: what the essay says, what would contradict it,
//! what was measured, and the verdict computed from the two. Introduced in
//! the introduction; every chapter's Verdict section quotes its claims.
//!
//! A claim's prediction is a list of [`Test`]s written in code before the
//! measurement fills them in: a quantity, a relation (`<`, `>`, `≈`) and a
//! bound. The *core* tests are what the essay's sentence predicts; the
//! *scope* tests are the conditions under which the book found it to hold.
//!
//! A referee varies the choices a measurement made (the counterfactual, the
//! target, the token set, the normalisation): each [`Choice`] repeats the
//! core tests under one such choice. The core holds *somewhere* when it
//! holds under the default or any choice, *everywhere* when under all.
//! Trained arms state whether they reached a plateau ([`Claim::trained`]);
//! a claim whose arms mostly hit their step cap cannot be decided either way.
//!
//! ```text
//! empirical:                         core everywhere   somewhere only   nowhere
//!   scope holds, arms on a plateau     supported         qualified       contradicted
//!   some scope test fails              qualified         qualified       contradicted
//!   most runs of an arm capped         undecided         undecided       undecided
//!     or stalled at chance
//! theorem, construction:   every test holds → checked, else failed
//! ```
//!
//! So a claim is qualified only where one of its predictions failed: a core
//! test under some varied choice, or a scope test. An essay claim tests
//! one sentence of the essay ([`essay`]) as the essay writes it; a stronger
//! reading is the book's own claim ([`Claim::ask`]).
//!
//! Where a claim tests a published result, a [`Replication`] first measures
//! that paper's own metric on the paper's own protocol; whether it reproduces
//! is reported beside the verdict, and does not enter it.
//!
//! ```
//! use attention_geometry::claim::{Claim, Evidence, Test, Verdict};
//! let c = Claim::empirical("score-not-similarity", "a score is not a raw similarity")
//!     .quotes("score-not-direct")
//!     .evidence(Evidence::Random)
//!     .core(Test::below("mean Spearman ρ, raw vs score", 0.01, 0.1, 2))
//!     .scope(Test::above("share of negative eigenvalues", 0.5, 0.25, 2));
//! assert_eq!(c.verdict(), Verdict::Supported);
//! ```

pub mod card;
pub mod essay;
pub mod json;
mod label;
pub mod plateau;
mod reason;
mod test;
pub mod text;

pub use label::{Evidence, Kind, Source, Verdict};
pub use reason::reason;
pub use test::{Choice, Relation, Replication, Test};

/// One claim of the book: the essay's sentence, its prediction, its measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// `chNN.slug` once registered (the chapter registry adds the prefix).
    pub id: String,
    /// The chapter's number (set by the registry).
    pub chapter: u8,
    /// The proposition the tests decide, in English: how the book reads the
    /// essay's sentence, or the book's own question.
    pub sentence: String,
    /// The same proposition in Chinese.
    pub zh: Option<String>,
    /// The essay's sentence the claim tests, for an essay claim
    /// ([`Source::Essay`]); `None` for the book's own questions.
    pub quotes: Option<&'static essay::Sentence>,
    /// Whose sentence: the essay's when it `quotes` one, else the book's.
    pub source: Source,
    pub kind: Kind,
    pub evidence: Evidence,
    /// What the essay predicts; all must hold.
    pub core: Vec<Test>,
    /// The conditions under which it was found to hold; a failure qualifies.
    pub scope: Vec<Test>,
    /// What the measurement was: sizes, seeds, the baseline.
    pub setting: String,
    /// The default of each choice the sensitivity varies, e.g. `counterfactual: knockout, renormalised`.
    pub default_choice: String,
    /// The core tests again under each other choice a referee would vary.
    pub choices: Vec<Choice>,
    /// The cited papers' own results on their own protocols.
    pub replications: Vec<Replication>,
    /// Per trained arm: how many of its runs hit the step cap before a
    /// plateau, or never left chance.
    pub plateau: Vec<plateau::Runs>,
}

impl Claim {
    pub fn new(kind: Kind, slug: &str, sentence: &str) -> Claim {
        Claim {
            id: slug.to_string(),
            chapter: 0,
            sentence: sentence.to_string(),
            zh: None,
            quotes: None,
            source: Source::Book,
            kind,
            evidence: Evidence::Random,
            core: Vec::new(),
            scope: Vec::new(),
            setting: String::new(),
            default_choice: String::new(),
            choices: Vec::new(),
            replications: Vec::new(),
            plateau: Vec::new(),
        }
    }

    /// A claim an experiment could contradict: the book's own question
    /// until it [`quotes`](Claim::quotes) the essay.
    pub fn empirical(slug: &str, sentence: &str) -> Claim {
        Claim::new(Kind::Empirical, slug, sentence)
    }

    /// A proved statement, checked numerically.
    pub fn theorem(slug: &str, sentence: &str) -> Claim {
        Claim::new(Kind::Theorem, slug, sentence)
    }

    /// A statement true by the experiment's construction, checked.
    pub fn construction(slug: &str, sentence: &str) -> Claim {
        Claim::new(Kind::Construction, slug, sentence)
    }

    /// Makes the claim the essay's: it tests the essay's sentence `id`
    /// ([`essay::SENTENCES`]), as written.
    ///
    /// # Panics
    /// If the essay has no sentence `id`.
    pub fn quotes(mut self, id: &str) -> Claim {
        self.quotes = Some(essay::sentence(id));
        self.source = Source::Essay;
        self
    }

    /// Sets the proposition in Chinese: the Chinese edition shows it in
    /// place of `sentence`.
    pub fn zh(mut self, sentence: impl Into<String>) -> Claim {
        self.zh = Some(sentence.into());
        self
    }

    /// Splits off the book's stronger reading: the scope tests that `which`
    /// selects become the core of a new [`Source::Book`] claim `slug`
    /// (its proposition `sentence`, in Chinese `zh`), with this claim's
    /// evidence, setting and plateau; this claim keeps the rest.
    ///
    /// ```
    /// use attention_geometry::claim::{Claim, Source, Test, Verdict};
    /// let [essay, book] = Claim::empirical("x", "a score is not a direct measure")
    ///     .quotes("score-not-direct")
    ///     .core(Test::below("ρ", 0.01, 0.1, 2))
    ///     .scope(Test::below("overlap − chance", 0.02, 0.0, 2))
    ///     .ask("y", "overlap is at chance", "重合处于随机水平", |_| true);
    /// assert_eq!((essay.verdict(), essay.source), (Verdict::Supported, Source::Essay));
    /// assert_eq!((book.verdict(), book.source), (Verdict::Contradicted, Source::Book));
    /// ```
    pub fn ask(
        mut self,
        slug: &str,
        sentence: &str,
        zh: &str,
        which: impl Fn(&Test) -> bool,
    ) -> [Claim; 2] {
        let (asked, kept): (Vec<Test>, Vec<Test>) = self.scope.drain(..).partition(|t| which(t));
        self.scope = kept;
        let mut book = Claim::new(self.kind, slug, sentence).zh(zh);
        book.evidence = self.evidence;
        book.setting = self.setting.clone();
        book.plateau = self.plateau.clone();
        book.core = asked;
        [self, book]
    }

    /// Sets what the measurement rests on.
    pub fn evidence(mut self, e: Evidence) -> Claim {
        self.evidence = e;
        self
    }

    /// Adds a test of what the essay predicts.
    pub fn core(mut self, t: Test) -> Claim {
        self.core.push(t);
        self
    }

    /// Adds a test of the conditions the claim was found to hold under.
    pub fn scope(mut self, t: Test) -> Claim {
        self.scope.push(t);
        self
    }

    /// Says what was measured: sizes, seeds, baseline.
    pub fn setting(mut self, s: impl Into<String>) -> Claim {
        self.setting = s.into();
        self
    }

    /// Names the default of the choices that [`Claim::under`] varies.
    pub fn default_choice(mut self, name: impl Into<String>) -> Claim {
        self.default_choice = name.into();
        self
    }

    /// Adds the core tests measured again under another choice.
    ///
    /// # Panics
    /// If `core` is empty.
    pub fn under(mut self, name: impl Into<String>, core: Vec<Test>) -> Claim {
        let name = name.into();
        assert!(!core.is_empty(), "choice '{name}' has no core test");
        self.choices.push(Choice { name, core });
        self
    }

    /// [`Claim::under`] for each `(name, core)`: one choice per entry, e.g.
    /// the same core asked of a second model.
    ///
    /// # Panics
    /// If a `core` is empty.
    pub fn under_each(self, choices: impl IntoIterator<Item = (String, Vec<Test>)>) -> Claim {
        choices
            .into_iter()
            .fold(self, |c, (name, core)| c.under(name, core))
    }

    /// Adds a cited paper's own result, on its own protocol.
    pub fn replication(
        mut self,
        paper: impl Into<String>,
        metric: impl Into<String>,
        finding: Test,
    ) -> Claim {
        self.replications.push(Replication {
            paper: paper.into(),
            metric: metric.into(),
            finding,
        });
        self
    }

    /// States a trained arm's plateau status: `capped` of its `runs` hit the
    /// step cap before the plateau rule held. An arm most of whose runs
    /// were capped cannot decide the verdict.
    pub fn trained(self, arm: &str, capped: usize, runs: usize) -> Claim {
        self.ended(arm, plateau::Ending::Capped, capped, runs)
    }

    /// Record that `stalled` of the `runs` of `arm` ended at chance (on a
    /// plateau, but never having learned the task). Like [`Claim::trained`]'s
    /// capped runs, an arm whose runs mostly stalled cannot decide the claim.
    pub fn learned(self, arm: &str, stalled: usize, runs: usize) -> Claim {
        self.ended(arm, plateau::Ending::Stalled, stalled, runs)
    }

    /// Record that `rising` of the `runs` of `arm` were cut by the cap in an
    /// arm-cell judged across caps: the cap cut half or more of its runs at
    /// every cap, and `rising` is that count when its mean accuracy still rose
    /// over the cap's last doubling, 0 when it had stopped. A rising arm
    /// cannot decide the claim.
    pub fn rising(self, arm: &str, rising: usize, runs: usize) -> Claim {
        self.ended(arm, plateau::Ending::Rising, rising, runs)
    }

    fn ended(mut self, arm: &str, ending: plateau::Ending, n: usize, runs: usize) -> Claim {
        self.plateau.push(plateau::Runs {
            arm: arm.to_string(),
            ending,
            n,
            runs,
        });
        self
    }

    /// The plateau rows as tests: the share of each arm's runs that ended
    /// without deciding, predicted below ½.
    pub fn plateau_tests(&self) -> Vec<Test> {
        self.plateau.iter().map(plateau::Runs::test).collect()
    }

    /// Whether the core holds under the default setting.
    pub fn core_holds(&self) -> bool {
        self.core.iter().all(Test::passes)
    }

    /// Whether the core holds under the default and under every choice.
    pub fn core_everywhere(&self) -> bool {
        self.core_holds() && self.choices.iter().all(Choice::holds)
    }

    /// Whether the core holds under the default or under some choice.
    pub fn core_somewhere(&self) -> bool {
        self.core_holds() || self.choices.iter().any(Choice::holds)
    }

    /// The verdict computed from the tests (see the module docs).
    ///
    /// # Panics
    /// If the claim has no core test: a claim without a prediction is not a claim.
    pub fn verdict(&self) -> Verdict {
        assert!(
            !self.core.is_empty(),
            "claim '{}' has no core test: state its prediction",
            self.id
        );
        let scope = self.scope.iter().all(Test::passes);
        let decided = self.plateau.iter().all(plateau::Runs::decides);
        match self.kind {
            Kind::Empirical if !decided => Verdict::Undecided,
            Kind::Empirical if !self.core_somewhere() => Verdict::Contradicted,
            Kind::Empirical if !scope || !self.core_everywhere() => Verdict::Qualified,
            Kind::Empirical => Verdict::Supported,
            _ if self.core_everywhere() && scope => Verdict::Checked,
            _ => Verdict::Failed,
        }
    }

    fn tests(&self) -> impl Iterator<Item = &Test> {
        self.core.iter().chain(&self.scope)
    }

    /// Every test's prediction, `; `-separated.
    pub fn prediction(&self) -> String {
        let texts: Vec<String> = self.tests().map(Test::prediction).collect();
        texts.join("; ")
    }

    /// Every test's measurement, `; `-separated.
    pub fn measured(&self) -> String {
        let texts: Vec<String> = self.tests().map(Test::measured).collect();
        texts.join("; ")
    }
}
