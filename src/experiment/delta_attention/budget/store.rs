//! The runs on disk of the decisive MQAR experiment: one JSON file per run,
//! read by the code hash it carries, written as each run finishes.

use std::collections::BTreeMap;
use std::path::Path;

use super::{Job, Record, Setup, Stage};
use crate::experiment::delta_attention::arm::Arm;
use crate::parallel;

/// The runs on disk: every record in `dir` carrying `hash`, by file name.
pub(super) struct Store<'a> {
    dir: &'a Path,
    hash: &'a str,
    pub(super) records: BTreeMap<String, Record>,
}

impl<'a> Store<'a> {
    pub(super) fn open(dir: &'a Path, hash: &'a str) -> Result<Store<'a>, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let mut records = BTreeMap::new();
        let entries =
            std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let Some(name) = name.filter(|n| n.ends_with(".json") && !n.starts_with('.')) else {
                continue;
            };
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let record: Record = serde_json::from_str(&text)
                .map_err(|e| format!("{} does not parse: {e}", path.display()))?;
            if record.code_hash == hash {
                records.insert(name, record);
            }
        }
        Ok(Store { dir, hash, records })
    }

    pub(super) fn get(&self, job: &Job) -> Option<&Record> {
        self.records.get(&job.file())
    }

    /// Run every job in parallel, writing each record as it finishes.
    pub(super) fn run(
        &mut self,
        setup: &Setup,
        jobs: &[Job],
        log: &(impl Fn(String) + Sync),
    ) -> Result<(), String> {
        let (dir, hash) = (self.dir, self.hash);
        let done = parallel::map(0..jobs.len() as u64, |i| {
            let job = &jobs[i as usize];
            let record = setup.run(job, hash);
            log(format!(
                "  {} {:?}: acc {:.3}, {:?} after {} steps, {:.0} s",
                job.file(),
                record.stage,
                record.accuracy,
                record.outcome,
                record.steps(),
                record.seconds
            ));
            let json = serde_json::to_string(&record).map_err(|e| e.to_string())?;
            let path = dir.join(job.file());
            crate::file::write_atomic(&path, (json + "\n").as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Ok::<_, String>((job.file(), record))
        });
        for d in done {
            let (name, record) = d?;
            self.records.insert(name, record);
        }
        Ok(())
    }

    /// The tuning records of `arm` in `cell` for every rate tried so far, and
    /// the jobs still missing: the grid grows one rate at a time while the
    /// pick sits on an edge.
    pub(super) fn grid(
        &self,
        setup: &Setup,
        arm: Arm,
        cell: (usize, usize),
    ) -> (Vec<(f64, Vec<&Record>)>, Vec<Job>) {
        let mut rates = setup.rates.clone();
        loop {
            let jobs: Vec<Job> = rates
                .iter()
                .flat_map(|&lr| {
                    setup.tune_seeds.iter().map(move |&seed| Job {
                        stage: Stage::Tune,
                        arm,
                        cell,
                        lr,
                        seed,
                    })
                })
                .collect();
            let missing: Vec<Job> = jobs
                .iter()
                .filter(|j| self.get(j).is_none())
                .copied()
                .collect();
            let tuned: Vec<(f64, Vec<&Record>)> = rates
                .iter()
                .map(|&lr| {
                    let rs = jobs
                        .iter()
                        .filter(|j| j.lr == lr)
                        .filter_map(|j| self.get(j))
                        .collect();
                    (lr, rs)
                })
                .collect();
            if !missing.is_empty() {
                return (tuned, missing);
            }
            match setup.widened(&tuned) {
                Some(next) => rates.push(next),
                None => return (tuned, missing),
            }
        }
    }
}
