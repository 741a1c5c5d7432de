//! The sequential-covering rule learner behind the one-vs-rest theories: for one class,
//! CELOE searches (with a short test budget) for a class expression separating the class's
//! still-uncovered examples from every other class's examples; the best expression it
//! reports that is good enough (the one with the highest χ² among them) becomes a rule, the
//! examples it covers are removed, and the search repeats until the class is covered or no
//! good-enough rule is left.
//!
//! "Good enough": on the examples the rule was learned from, it covers its class more
//! often than chance and its χ² reaches [`MultiClassParams::min_chi2`] (a significance
//! test of the 2×2 table, not a constant fitted to a data set).

use std::time::{Duration, Instant};

use super::chi2::RuleCounts;
use super::params::MultiClassParams;
use crate::concept::Concept;
use crate::learn::celoe::Celoe;
use crate::learn::{Examples, LearnError, RunControl, Termination};
use crate::oracle::{IndividualSet, MembershipOracle};

/// The rules found for one class: each expression with the training examples it covers.
#[derive(Clone, Debug)]
pub struct ClassRules {
    pub rules: Vec<(Concept, IndividualSet)>,
    /// Candidates scored over all rule searches.
    pub tests: u64,
    /// Why covering stopped: `exhausted` (class covered, or no good-enough rule), a
    /// budget, or cancellation.
    pub termination: Termination,
}

/// The budget of one class's covering: the fit's control (cancellation, progress) and the
/// end of the class's share of the fit's time, if it has a time budget.
pub struct Budget<'c> {
    pub control: &'c RunControl,
    pub until: Option<Instant>,
}

impl Budget<'_> {
    /// The control of one rule search: the rule's test budget, the time left of the fit's
    /// budget, the caller's cancellation flag and progress. `None` when the fit is out of
    /// time or cancelled.
    fn rule_control(&self, rule_tests: u64) -> Result<RunControl, Termination> {
        if self
            .control
            .cancel
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Err(Termination::Cancelled);
        }
        let max_runtime = match self.until {
            Some(until) => {
                let left = until.saturating_duration_since(Instant::now());
                if left < Duration::from_millis(1) {
                    return Err(Termination::TimeBudget);
                }
                Some(left)
            }
            None => None,
        };
        Ok(RunControl {
            max_runtime,
            max_tests: Some(rule_tests),
            max_queries: None,
            cancel: self.control.cancel.clone(),
            progress: self.control.progress.clone(),
        })
    }
}

/// Covers `class` (its training examples) against `others` (every other class's).
pub fn cover_class<O: MembershipOracle + ?Sized>(
    celoe: &Celoe<'_>,
    oracle: &O,
    class: &IndividualSet,
    others: &IndividualSet,
    among: &IndividualSet,
    params: &MultiClassParams,
    budget: &Budget<'_>,
) -> Result<ClassRules, LearnError> {
    let training = class.union(others);
    let mut uncovered = class.clone();
    let mut out = ClassRules {
        rules: Vec::new(),
        tests: 0,
        termination: Termination::Exhausted,
    };
    while !uncovered.is_empty()
        && params
            .max_rules_per_class
            .is_none_or(|m| out.rules.len() < m)
    {
        let control = match budget.rule_control(params.rule_tests) {
            Ok(c) => c,
            Err(t) => {
                out.termination = t;
                break;
            }
        };
        let examples = Examples::new(uncovered.clone(), others.clone())?;
        let run = celoe.run_within(oracle, &examples, among, &control)?;
        out.tests += run.stats.concepts_tested;
        // Of the expressions CELOE reports (best by its quality first), the acceptable one
        // most associated with the class by χ², the paper's rule measure.
        let chosen = run
            .model
            .solutions
            .iter()
            .filter_map(|s| {
                let c = s.confusion;
                let counts = RuleCounts {
                    examples: examples.all().len(),
                    covered: c.tp + c.fp,
                    of_class: uncovered.len(),
                    covered_of_class: c.tp,
                };
                let chi2 = counts.chi2();
                (c.tp > 0 && counts.positively_associated() && chi2 >= params.min_chi2)
                    .then_some((s, chi2))
            })
            .fold(
                None,
                |best: Option<(&crate::learn::Solution, f64)>, (s, x)| match best {
                    Some((_, y)) if y >= x => best,
                    _ => Some((s, x)),
                },
            )
            .map(|(s, _)| s);
        let Some(s) = chosen else {
            if matches!(
                run.stats.termination,
                Termination::Cancelled | Termination::TimeBudget
            ) {
                out.termination = run.stats.termination;
            }
            break;
        };
        let covered = oracle
            .members(&s.concept, among, params.celoe.semantics)?
            .intersection(&training);
        if covered.intersection_count(&uncovered) == 0 {
            break;
        }
        uncovered.difference_with(&covered);
        out.rules.push((s.concept.clone(), covered));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::KnowledgeBase;
    use crate::concept::Iri;
    use crate::learn::multiclass::ignore::mentions_any;
    use crate::learn::multiclass::{MultiClass, MultiClassParams, RuleTable};
    use crate::learn::{RunControl, TrainingSet};
    use crate::problem::load_multiclass;
    use crate::refine::rho::RhoOptions;

    fn zoo() -> (KnowledgeBase, TrainingSet) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/multiclass");
        let kb = KnowledgeBase::from_files(&[root.join("zoo.ttl")]).expect("zoo loads");
        let p = &load_multiclass(&root.join("zoo-train.tsv"), Some("class")).expect("tsv")[0];
        let sig = kb.signature();
        let labels = p
            .examples
            .iter()
            .map(|(iri, c)| (sig.individual_id(iri).expect("an individual"), *c))
            .collect();
        let t = TrainingSet::multi_class(p.classes.clone(), labels).expect("training");
        (kb, t)
    }

    fn rules(kb: &KnowledgeBase, t: &TrainingSet, params: MultiClassParams) -> RuleTable {
        let rho = kb.rho(RhoOptions::default()).expect("rho");
        let learner = MultiClass::new(params, &rho).expect("params");
        learner
            .learn_rules(kb.oracle(), t, &RunControl::unlimited())
            .expect("fit")
            .table
    }

    #[test]
    fn covering_keeps_significant_rules_until_each_class_is_covered() {
        let (kb, t) = zoo();
        let table = rules(&kb, &t, MultiClassParams::default());
        let all = table.all_examples();
        for c in 0..4 {
            let of_class: Vec<usize> = table.rules_of(c).collect();
            assert!(!of_class.is_empty(), "class {c}");
            // The first rule of a class was learned on all examples: it passes the test.
            let first = table.counts(of_class[0], &all);
            assert!(
                first.positively_associated() && first.chi2() >= 3.84,
                "{first:?}"
            );
            // Together the class's rules cover every training example of the class.
            let mut covered = fixedbitset::FixedBitSet::with_capacity(all.len());
            for &r in &of_class {
                covered.union_with(&table.rules[r].covers);
            }
            assert!(
                (0..16)
                    .filter(|&i| table.labels[i] == c)
                    .all(|i| covered.contains(i))
            );
        }
        // Same data, same parameters: the same rules.
        assert_eq!(table, rules(&kb, &t, MultiClassParams::default()));
        // A bar no rule can pass: no rule at all.
        let none = rules(
            &kb,
            &t,
            MultiClassParams {
                min_chi2: 1e9,
                ..MultiClassParams::default()
            },
        );
        assert!(none.rules.is_empty());
    }

    #[test]
    fn ignored_classes_appear_in_no_rule() {
        let (kb, t) = zoo();
        let feathers: std::collections::BTreeSet<Iri> =
            [Iri::new("http://example.org/zoo#Feathers")].into();
        let table = rules(
            &kb,
            &t,
            MultiClassParams {
                ignored_classes: feathers.clone(),
                ..MultiClassParams::default()
            },
        );
        assert!(table.rules_of(0).count() > 0, "birds still get a rule");
        assert!(
            table
                .rules
                .iter()
                .all(|r| !mentions_any(&r.concept, &feathers))
        );
        let with = rules(&kb, &t, MultiClassParams::default());
        assert!(
            with.rules
                .iter()
                .any(|r| mentions_any(&r.concept, &feathers))
        );
    }
}
