//! A `.conf` file's learner settings as defaults of the learner flags: each setting sets
//! its flag unless the flag was given on the command line. Settings not understood, and
//! settings the chosen learner does not use, are reported on stderr, one line each with
//! the file and line.

use super::learners::LearnArgs;
use super::learners::REGISTRY;
use crate::oracle::Semantics;
use crate::problem::{LearnerSettings, LearningProblem, Setting};

/// The flag a setting stands for.
fn flag_of(s: &Setting) -> &'static str {
    match s {
        Setting::Algorithm(_) => "algorithm",
        Setting::MaxRuntime(_) => "max-runtime",
        Setting::Noise(_) => "noise",
        Setting::MaxResults(_) => "max-results",
        Setting::MaxDepth(_) => "max-depth",
        Setting::MaxTests(_) => "max-tests",
        Setting::StartClass(_) => "start-class",
        Setting::ExpansionPenalty(_) => "expansion-penalty",
        Setting::StartBonus(_) => "start-bonus",
        Setting::GainBonus(_) => "gain-bonus",
        Setting::RefinementPenalty(_) => "refinement-penalty",
        Setting::UseHasValue(_) => "has-value",
        Setting::UseNegation(_) => "no-negation",
        Setting::UseAll(_) => "no-all",
        Setting::UseExists(_) => "no-exists",
        Setting::UseCardinality(_) => "no-cardinality",
        Setting::UseBooleans(_) => "no-booleans",
        Setting::UseNumbers(_) => "no-numbers",
        Setting::UseInverse(_) => "inverse",
        Setting::CardinalityLimit(_) => "cardinality-limit",
        Setting::FrequencyThreshold(_) => "frequency-threshold",
        Setting::OpenWorld(_) => "semantics",
    }
}

/// Sets the flag of `s` in `args`.
fn set(args: &mut LearnArgs, s: &Setting) {
    match s {
        Setting::Algorithm(a) => args.algorithm = a.clone(),
        Setting::MaxRuntime(secs) => args.search.max_runtime = *secs,
        Setting::Noise(n) => args.celoe.noise = Some(*n),
        Setting::MaxResults(n) => args.solutions.max_results = *n,
        Setting::MaxDepth(n) => args.celoe.max_depth = Some(*n),
        Setting::MaxTests(n) => args.search.max_tests = Some(*n),
        Setting::StartClass(iri) => args.start.start_class = Some(format!("<{iri}>")),
        Setting::ExpansionPenalty(f) => args.celoe.expansion_penalty = *f,
        Setting::StartBonus(f) => args.celoe.start_bonus = *f,
        Setting::GainBonus(f) => args.celoe.gain_bonus = *f,
        Setting::RefinementPenalty(f) => args.celoe.refinement_penalty = *f,
        Setting::UseHasValue(b) => {
            args.values.has_value = *b;
            args.values.no_has_value = !b;
        }
        Setting::UseNegation(b) => args.rho.no_negation = !b,
        Setting::UseAll(b) => args.rho.no_all = !b,
        Setting::UseExists(b) => args.rho.no_exists = !b,
        Setting::UseCardinality(b) => args.rho.no_cardinality = !b,
        Setting::UseBooleans(b) => args.rho.no_booleans = !b,
        Setting::UseNumbers(b) => args.rho.no_numbers = !b,
        Setting::UseInverse(b) => args.rho.inverse = *b,
        Setting::CardinalityLimit(n) => args.rho.cardinality_limit = *n,
        Setting::FrequencyThreshold(n) => args.values.frequency_threshold = *n,
        Setting::OpenWorld(open) => {
            args.semantics = if *open {
                Semantics::Open
            } else {
                Semantics::Closed
            };
        }
    }
}

/// Whether the command line gave `flag` or its negation (`--no-has-value` for `has-value`).
fn given(args: &LearnArgs, flag: &str) -> bool {
    args.explicit
        .iter()
        .any(|f| f == flag || f.strip_prefix("no-") == Some(flag))
}

/// Whether the learner named `algorithm` takes `flag`.
fn uses(algorithm: &str, flag: &str) -> bool {
    REGISTRY
        .iter()
        .find(|e| e.name == algorithm)
        .is_some_and(|e| e.uses(flag))
}

/// `args` with the settings of the first problem that has any applied; the messages it
/// would print (also returned, for tests).
pub fn apply(args: &mut LearnArgs, problems: &[LearningProblem]) -> Vec<String> {
    let mut messages = kb_source(args, problems);
    if let Some(settings) = problems.iter().find_map(|p| p.settings.as_ref()) {
        messages.extend(apply_settings(args, settings));
    }
    for m in &messages {
        eprintln!("{m}");
    }
    messages
}

/// The knowledge source a `.conf` file names, unless `--kb` or `--endpoint` is given: its
/// SPARQL endpoint (and graphs), or the syntax of its file (`ks.type = "KB File"`).
fn kb_source(args: &mut LearnArgs, problems: &[LearningProblem]) -> Vec<String> {
    let kb = &mut args.kb;
    if kb.endpoint.is_some() || !kb.kb.is_empty() {
        return Vec::new();
    }
    let mut messages = Vec::new();
    if let Some((p, e)) = problems
        .iter()
        .find_map(|p| p.endpoint.as_ref().map(|e| (p, e)))
    {
        kb.endpoint = Some(e.url.clone());
        if kb.graph.is_empty() {
            kb.graph = e.default_graphs.clone();
        }
        let file = p.settings.as_ref().map(|s| s.path.display().to_string());
        messages.push(format!(
            "{}:{}: querying the SPARQL endpoint {} named here (--endpoint URL overrides it)",
            file.unwrap_or_else(|| p.name.clone()),
            e.line,
            e.url
        ));
    } else if kb.format.is_none()
        && let Some(format) = problems.iter().find_map(|p| p.kb_format)
    {
        kb.format = Some(format.name().to_owned());
    }
    messages
}

fn apply_settings(args: &mut LearnArgs, settings: &LearnerSettings) -> Vec<String> {
    let file = settings.path.display();
    let mut messages: Vec<(usize, String)> = settings.not_understood.clone();
    // The algorithm first: whether the others apply depends on it.
    for s in &settings.settings {
        if let Setting::OpenWorld(_) = s.setting
            && !args.explicit.iter().any(|f| f == "semantics")
        {
            set(args, &s.setting);
        }
        if let Setting::Algorithm(_) = s.setting
            && !args.explicit.iter().any(|f| f == "algorithm")
        {
            set(args, &s.setting);
        }
    }
    for s in &settings.settings {
        let flag = flag_of(&s.setting);
        if matches!(flag, "algorithm" | "semantics") || given(args, flag) {
            continue;
        }
        if uses(&args.algorithm, flag) {
            set(args, &s.setting);
        } else {
            messages.push((
                s.line,
                format!(
                    "{}: not used by --algorithm {}, ignored",
                    s.key, args.algorithm
                ),
            ));
        }
    }
    messages.sort_by_key(|(line, _)| *line);
    messages
        .into_iter()
        .map(|(line, m)| format!("{file}:{line}: {m}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    /// The flag names typed here are those clap knows: a typo would silently stop a
    /// setting from applying.
    #[test]
    fn every_setting_names_a_flag_of_learn() {
        let learn = crate::cli::args::Cli::command()
            .find_subcommand("learn")
            .cloned()
            .expect("a learn command");
        let longs: Vec<String> = learn
            .get_arguments()
            .filter_map(|a| a.get_long().map(str::to_owned))
            .collect();
        let every = [
            Setting::Algorithm("celoe".into()),
            Setting::MaxRuntime(1.0),
            Setting::Noise(1.0),
            Setting::MaxResults(1),
            Setting::MaxDepth(1),
            Setting::MaxTests(1),
            Setting::StartClass("http://e/A".into()),
            Setting::ExpansionPenalty(0.1),
            Setting::StartBonus(0.1),
            Setting::GainBonus(0.1),
            Setting::RefinementPenalty(0.1),
            Setting::UseHasValue(true),
            Setting::UseNegation(true),
            Setting::UseAll(true),
            Setting::UseExists(true),
            Setting::UseCardinality(true),
            Setting::UseBooleans(true),
            Setting::UseNumbers(true),
            Setting::UseInverse(true),
            Setting::CardinalityLimit(1),
            Setting::FrequencyThreshold(1),
            Setting::OpenWorld(true),
        ];
        for s in &every {
            let flag = flag_of(s);
            assert!(longs.iter().any(|l| l == flag), "--{flag} ({s:?})");
        }
    }
}
