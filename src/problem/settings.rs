//! A `.conf` file's learner settings: DL-Learner's learning algorithm (`alg.*`), heuristic
//! (`h.*`) and refinement operator (`op.*`) components, read so that the CLI can take them
//! as defaults (flags given on the command line win). Components are recognised by their
//! `type` (`celoe`, `ocel`, `pceloe`; `celoe_heuristic`; `rho`; reasoners) or, without
//! one, by the usual names `alg`, `h`, `op`, and the old dialect's component names
//! (`refexamples.noisePercentage`, `algorithm = ocel`, `reasoner = fastInstanceChecker`).
//! A learner oxilearn does not have (`gp`, `el`, `qtl2dis`, …) is reported with its line
//! and what runs instead. What is not understood is kept with its line, for a
//! warning; a setting that is understood but has a bad value is an error naming the line.

use std::collections::HashMap;
use std::path::PathBuf;

use super::ProblemError;
use super::conf_syntax::ConfValue;

/// One understood setting.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Setting {
    /// The learner `alg.type` names (`celoe`, also for `ocel` and `pceloe`).
    Algorithm(String),
    MaxRuntime(f64),
    Noise(f64),
    MaxResults(usize),
    MaxDepth(usize),
    MaxTests(u64),
    /// A full IRI (prefixes expanded).
    StartClass(String),
    ExpansionPenalty(f64),
    StartBonus(f64),
    GainBonus(f64),
    RefinementPenalty(f64),
    UseHasValue(bool),
    UseNegation(bool),
    UseAll(bool),
    UseExists(bool),
    UseCardinality(bool),
    UseBooleans(bool),
    UseNumbers(bool),
    UseInverse(bool),
    CardinalityLimit(u32),
    FrequencyThreshold(usize),
    /// The reasoner's world: `true` for an open-world reasoner (`"OWL API Reasoner"`),
    /// `false` for a closed-world one (`"closed world reasoner"`, `fastInstanceChecker`).
    OpenWorld(bool),
}

/// A setting with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct LocatedSetting {
    pub line: usize,
    /// As written (`alg.noisePercentage`).
    pub key: String,
    pub setting: Setting,
}

/// The learner settings of one `.conf` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LearnerSettings {
    /// The `.conf` file, for messages.
    pub path: PathBuf,
    pub settings: Vec<LocatedSetting>,
    /// Statements not understood: line and a message naming the key.
    pub not_understood: Vec<(usize, String)>,
}

/// What a component is, from its `type` or its name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Learner,
    UnsupportedLearner,
    Heuristic,
    Operator,
    Reasoner,
    /// Knowledge source, learning problem, CLI: read elsewhere or not needed.
    Other,
}

/// Learner types (and old-dialect component names) that run as CELOE here.
const LEARNERS: [&str; 4] = ["celoe", "ocel", "pceloe", "refexamples"];

/// Old-dialect component names of DL-Learner learners oxilearn does not have.
const OTHER_LEARNERS: [&str; 8] = [
    "gp",
    "el",
    "disjunctiveel",
    "refinement",
    "bruteforce",
    "random",
    "eltl",
    "parcel",
];

/// Reasoner types (spaces, case, `_` and `-` ignored) and whether they are closed-world.
const REASONERS: [(&str, bool); 9] = [
    ("closedworldreasoner", true),
    ("cwr", true),
    ("fastinstancechecker", true),
    ("fic", true),
    ("sparqlreasoner", true),
    ("owlapireasoner", false),
    ("owlapi", false),
    ("dig", false),
    ("pellet", false),
];

/// Learning-problem types that are positive/negative (or positive-only, or class) problems.
const PROBLEMS: [&str; 9] = [
    "posnegstandard",
    "posneglpstandard",
    "posnegdefinitionlp",
    "posneginclusionlp",
    "posonlylp",
    "clp",
    "classlearningproblem",
    "classlearning",
    "posonly",
];

/// Types of components read elsewhere (knowledge sources) or that change nothing here.
const OTHER_TYPES: [&str; 6] = [
    "kbfile",
    "owlfile",
    "sparqlendpoint",
    "sparqlendpointfragment",
    "org.dllearner.cli.cli",
    "multiheuristic",
];

/// `"OWL API Reasoner"` → `owlapireasoner`.
fn squash(t: &str) -> String {
    t.chars()
        .filter(|c| !c.is_whitespace() && *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

fn kind_of(component: &str, type_: Option<&str>) -> Kind {
    match type_.map(squash).as_deref() {
        Some(t) if LEARNERS.contains(&t) => Kind::Learner,
        Some("celoeheuristic" | "multiheuristic") => Kind::Heuristic,
        Some("rho") => Kind::Operator,
        Some(t) if REASONERS.iter().any(|(r, _)| *r == t) => Kind::Reasoner,
        Some(_) if matches!(component, "alg" | "algorithm" | "la") => Kind::UnsupportedLearner,
        Some(t) if OTHER_LEARNERS.contains(&t) => Kind::UnsupportedLearner,
        Some(_) => Kind::Other,
        None => {
            let c = squash(component);
            match c.as_str() {
                "alg" | "algorithm" | "la" => Kind::Learner,
                c if LEARNERS.contains(&c) => Kind::Learner,
                c if OTHER_LEARNERS.contains(&c) => Kind::UnsupportedLearner,
                "h" => Kind::Heuristic,
                "op" => Kind::Operator,
                c if REASONERS.iter().any(|(r, _)| *r == c) => Kind::Reasoner,
                _ => Kind::Other,
            }
        }
    }
}

/// Keys of the other components that are read elsewhere or change nothing here.
const QUIET_OTHER: [&str; 10] = [
    "type",
    "fileName",
    "url",
    "defaultGraphURIs",
    "sources",
    "positiveExamples",
    "negativeExamples",
    "fuzzyEx",
    "classToDescribe",
    "predefinedEndpoint",
];

/// What runs when a file names a learner oxilearn does not have.
const INSTEAD: &str = "the default learner (celoe, unless --algorithm) runs instead";

/// Reads the learner settings from a file's statements; `expand` turns a prefixed name
/// into a full IRI.
pub(crate) fn read(
    path: &std::path::Path,
    statements: &[(String, ConfValue)],
    expand: &dyn Fn(&str) -> Result<String, String>,
) -> Result<LearnerSettings, ProblemError> {
    let mut types: HashMap<&str, &str> = HashMap::new();
    for (key, value) in statements {
        if let (Some((c, "type")), ConfValue::Str(t, _) | ConfValue::Word(t, _)) =
            (key.split_once('.'), value)
        {
            types.insert(c, t);
        }
    }
    let components: Vec<&str> = types.keys().copied().collect();
    let mut out = LearnerSettings {
        path: path.to_owned(),
        ..Default::default()
    };
    // Reasoners seen: (line, key, closed world?).
    let mut reasoners: Vec<(usize, String, bool)> = Vec::new();
    for (key, value) in statements {
        let line = value.line();
        let Some((component, name)) = key.split_once('.') else {
            top_level(key, value, &mut out, &mut reasoners);
            continue;
        };
        // Wiring between components (`alg.operator = op`) needs nothing.
        if let ConfValue::Word(w, _) = value
            && components.contains(&w.as_str())
        {
            continue;
        }
        let kind = kind_of(component, types.get(component).copied());
        let bad = |message: String| ProblemError::Syntax {
            path: path.to_owned(),
            line: Some(line),
            column: None,
            message: format!("{key}: {message}"),
        };
        // Old-dialect learners carry the operator's options themselves.
        let as_operator = matches!(kind, Kind::Operator | Kind::Learner);
        let setting = if let Some(s) = typed(kind, key, name, value, &mut out, &mut reasoners) {
            s
        } else if let Some(s) = learner_setting(kind, name, value, expand, &bad)? {
            Some(s)
        } else if let Some(s) = as_operator
            .then(|| operator_setting(name, value, &bad))
            .transpose()?
            .flatten()
        {
            Some(s)
        } else {
            if !(matches!(kind, Kind::Other | Kind::Reasoner) && QUIET_OTHER.contains(&name)) {
                out.not_understood
                    .push((line, format!("{key}: not understood, ignored")));
            }
            None
        };
        if let Some(setting) = setting {
            out.settings.push(LocatedSetting {
                line,
                key: key.clone(),
                setting,
            });
        }
    }
    // The reasoners' world: closed as soon as one is (DL-Learner's closed-world reasoner
    // wraps the OWL API one), open when only open-world reasoners are named.
    if let Some((line, key, closed)) = reasoners.iter().find(|r| r.2).or_else(|| reasoners.first())
    {
        out.settings.push(LocatedSetting {
            line: *line,
            key: key.clone(),
            setting: Setting::OpenWorld(!closed),
        });
        out.settings.sort_by_key(|s| s.line);
    }
    Ok(out)
}

/// The `type` statements, and the options of learners oxilearn does not have: `Some` when
/// `name` is one of them (with the setting it makes, if any); notes and reasoners are kept.
fn typed(
    kind: Kind,
    key: &str,
    name: &str,
    value: &ConfValue,
    out: &mut LearnerSettings,
    reasoners: &mut Vec<(usize, String, bool)>,
) -> Option<Option<Setting>> {
    let line = value.line();
    Some(match (kind, name) {
        (Kind::Learner | Kind::Heuristic | Kind::Operator, "type") => match kind {
            Kind::Learner => Some(Setting::Algorithm("celoe".to_owned())),
            _ => None,
        },
        (Kind::UnsupportedLearner, "type") => {
            let t = text(value).unwrap_or_default();
            out.not_understood.push((
                line,
                format!(
                    "{key} = \"{t}\": oxilearn has no such learner (only celoe, ocel, \
                         pceloe); {INSTEAD}"
                ),
            ));
            None
        }
        (Kind::UnsupportedLearner, _) => {
            out.not_understood.push((
                line,
                format!("{key}: an option of a learner oxilearn does not have, ignored"),
            ));
            None
        }
        (Kind::Reasoner, "type") => {
            let t = text(value).map(|t| squash(&t)).unwrap_or_default();
            if let Some((_, closed)) = REASONERS.iter().find(|(r, _)| *r == t) {
                reasoners.push((line, key.to_owned(), *closed));
            }
            None
        }
        (Kind::Other, "type") => {
            let t = text(value).unwrap_or_default();
            let s = squash(&t);
            if !(PROBLEMS.contains(&s.as_str()) || OTHER_TYPES.contains(&s.as_str())) {
                out.not_understood.push((
                    line,
                    format!("{key} = \"{t}\": a component oxilearn does not have, ignored"),
                ));
            }
            None
        }
        _ => return None,
    })
}

/// A learner's or heuristic's setting named `name`, if it is one.
fn learner_setting(
    kind: Kind,
    name: &str,
    value: &ConfValue,
    expand: &dyn Fn(&str) -> Result<String, String>,
    bad: &dyn Fn(String) -> ProblemError,
) -> Result<Option<Setting>, ProblemError> {
    Ok(match (kind, name) {
        (Kind::Learner, "maxExecutionTimeInSeconds") => Some(Setting::MaxRuntime(
            number(value, 0.0, f64::MAX).map_err(bad)?,
        )),
        (Kind::Learner, "noisePercentage") => {
            Some(Setting::Noise(number(value, 0.0, 100.0).map_err(bad)?))
        }
        (Kind::Learner, "maxNrOfResults") => {
            Some(Setting::MaxResults(count(value, 1).map_err(bad)? as usize))
        }
        (Kind::Learner, "maxDepth") => {
            Some(Setting::MaxDepth(count(value, 1).map_err(bad)? as usize))
        }
        (Kind::Learner, "maxClassDescriptionTests" | "maxClassExpressionTests") => {
            Some(Setting::MaxTests(count(value, 1).map_err(bad)?))
        }
        (Kind::Learner, "startClass") => {
            let t = text(value).ok_or_else(|| bad("expected a class IRI".to_owned()))?;
            Some(Setting::StartClass(expand(&t).map_err(bad)?))
        }
        (Kind::Heuristic | Kind::Learner, "expansionPenaltyFactor") => Some(
            Setting::ExpansionPenalty(number(value, f64::MIN, f64::MAX).map_err(bad)?),
        ),
        (Kind::Heuristic | Kind::Learner, "startNodeBonus") => Some(Setting::StartBonus(
            number(value, f64::MIN, f64::MAX).map_err(bad)?,
        )),
        (Kind::Heuristic, "gainBonusFactor") => Some(Setting::GainBonus(
            number(value, f64::MIN, f64::MAX).map_err(bad)?,
        )),
        (Kind::Heuristic, "nodeRefinementPenalty") => Some(Setting::RefinementPenalty(
            number(value, f64::MIN, f64::MAX).map_err(bad)?,
        )),
        _ => None,
    })
}

/// A refinement operator's setting named `name` (of an operator or, in the old dialect, of
/// a learner), if it is one.
fn operator_setting(
    name: &str,
    value: &ConfValue,
    bad: &dyn Fn(String) -> ProblemError,
) -> Result<Option<Setting>, ProblemError> {
    Ok(match name {
        "useHasValueConstructor" | "useHasValue" => {
            Some(Setting::UseHasValue(boolean(value).map_err(bad)?))
        }
        "useNegation" => Some(Setting::UseNegation(boolean(value).map_err(bad)?)),
        "useAllConstructor" => Some(Setting::UseAll(boolean(value).map_err(bad)?)),
        "useExistsConstructor" => Some(Setting::UseExists(boolean(value).map_err(bad)?)),
        "useCardinalityRestrictions" => Some(Setting::UseCardinality(boolean(value).map_err(bad)?)),
        "useBooleanDatatypes" => Some(Setting::UseBooleans(boolean(value).map_err(bad)?)),
        "useNumericDatatypes" | "useDoubleDatatypes" => {
            Some(Setting::UseNumbers(boolean(value).map_err(bad)?))
        }
        "useInverse" => Some(Setting::UseInverse(boolean(value).map_err(bad)?)),
        "cardinalityLimit" => {
            let n = count(value, 1).map_err(bad)?;
            let n = u32::try_from(n).map_err(|_| bad(format!("{n} is too large")))?;
            Some(Setting::CardinalityLimit(n))
        }
        "frequencyThreshold" | "valueFrequencyThreshold" => Some(Setting::FrequencyThreshold(
            count(value, 1).map_err(bad)? as usize,
        )),
        _ => None,
    })
}

/// Old-dialect statements without a component: `algorithm = refexamples;`,
/// `reasoner = fastInstanceChecker;`, `problem = posOnlyLP;`.
fn top_level(
    key: &str,
    value: &ConfValue,
    out: &mut LearnerSettings,
    reasoners: &mut Vec<(usize, String, bool)>,
) {
    let line = value.line();
    let t = text(value).unwrap_or_default();
    let s = squash(&t);
    match key {
        "prefixes" => {}
        "algorithm" if LEARNERS.contains(&s.as_str()) => out.settings.push(LocatedSetting {
            line,
            key: key.to_owned(),
            setting: Setting::Algorithm("celoe".to_owned()),
        }),
        "algorithm" => out.not_understood.push((
            line,
            format!(
                "algorithm = {t}: oxilearn has no such learner (only celoe, ocel, pceloe, \
                 refexamples); {INSTEAD}"
            ),
        )),
        "reasoner" => match REASONERS.iter().find(|(r, _)| *r == s) {
            Some((_, closed)) => reasoners.push((line, key.to_owned(), *closed)),
            None => out.not_understood.push((
                line,
                format!("reasoner = {t}: not understood, the closed world is used"),
            )),
        },
        "problem" if PROBLEMS.contains(&s.as_str()) => {}
        _ => out
            .not_understood
            .push((line, format!("{key}: not understood, ignored"))),
    }
}

fn text(v: &ConfValue) -> Option<String> {
    match v {
        ConfValue::Str(s, _) | ConfValue::Word(s, _) => Some(s.clone()),
        _ => None,
    }
}

fn number(v: &ConfValue, min: f64, max: f64) -> Result<f64, String> {
    let t = text(v).ok_or_else(|| format!("expected a number, found {}", v.describe()))?;
    match t.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && (min..=max).contains(&x) => Ok(x),
        Ok(x) if x.is_finite() => Err(format!("{x} is out of range ({min} to {max})")),
        _ => Err(format!("expected a number, found {}", v.describe())),
    }
}

fn count(v: &ConfValue, min: u64) -> Result<u64, String> {
    let t = text(v).ok_or_else(|| format!("expected a whole number, found {}", v.describe()))?;
    match t.trim().parse::<u64>() {
        Ok(n) if n >= min => Ok(n),
        Ok(n) => Err(format!("{n} is below the least allowed, {min}")),
        Err(_) => Err(format!("expected a whole number, found {}", v.describe())),
    }
}

fn boolean(v: &ConfValue) -> Result<bool, String> {
    match text(v).as_deref().map(str::trim) {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!("expected true or false, found {}", v.describe())),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn settings_of(text: &str) -> Result<LearnerSettings, ProblemError> {
        let full = format!(
            "prefixes = [ (\"ex\", \"http://e/\") ]\n\
             lp.type = \"posNegStandard\"\n\
             lp.positiveExamples = {{ \"ex:a\" }}\n\
             lp.negativeExamples = {{ \"ex:b\" }}\n{text}"
        );
        let problems = super::super::conf::load(Path::new("s.conf"), &full, "s")?;
        Ok(problems.settings.unwrap_or_default())
    }

    #[test]
    fn learner_heuristic_and_operator_settings_are_read_with_their_lines() {
        let s = settings_of(
            "alg.type = \"ocel\"\n\
             alg.maxExecutionTimeInSeconds = 100\n\
             alg.noisePercentage = 30\n\
             alg.startClass = \"ex:Person\"\n\
             alg.maxNrOfResults = 3\n\
             h.type = \"celoe_heuristic\"\n\
             h.expansionPenaltyFactor = 0.02\n\
             op.type = \"rho\"\n\
             op.useHasValue = true\n\
             op.useNegation = false\n\
             op.useAllConstructor = false\n\
             op.useCardinalityRestrictions = false\n\
             op.frequencyThreshold = 5\n",
        )
        .unwrap();
        let got: Vec<(usize, Setting)> = s
            .settings
            .iter()
            .map(|l| (l.line, l.setting.clone()))
            .collect();
        assert_eq!(
            got,
            vec![
                (5, Setting::Algorithm("celoe".into())),
                (6, Setting::MaxRuntime(100.0)),
                (7, Setting::Noise(30.0)),
                (8, Setting::StartClass("http://e/Person".into())),
                (9, Setting::MaxResults(3)),
                (11, Setting::ExpansionPenalty(0.02)),
                (13, Setting::UseHasValue(true)),
                (14, Setting::UseNegation(false)),
                (15, Setting::UseAll(false)),
                (16, Setting::UseCardinality(false)),
                (17, Setting::FrequencyThreshold(5)),
            ]
        );
        assert!(s.not_understood.is_empty(), "{:?}", s.not_understood);
        assert_eq!(s.path, Path::new("s.conf"));
    }

    #[test]
    fn components_are_found_by_type_and_the_rest_is_reported_by_line() {
        let s = settings_of(
            "ks.type = \"OWL File\"\n\
             reasoner.type = \"closed world reasoner\"\n\
             reasoner.sources = { ks }\n\
             learner.type = \"celoe\"\n\
             learner.reasoner = reasoner\n\
             learner.noisePercentage = 5\n\
             learner.terminateOnNoiseReached = true\n\
             lp.accuracyMethod = \"fmeasure\"\n",
        )
        .unwrap();
        let got: Vec<Setting> = s.settings.iter().map(|l| l.setting.clone()).collect();
        assert_eq!(
            got,
            vec![
                Setting::OpenWorld(false),
                Setting::Algorithm("celoe".into()),
                Setting::Noise(5.0)
            ]
        );
        assert_eq!(
            s.not_understood,
            vec![
                (
                    11,
                    "learner.terminateOnNoiseReached: not understood, ignored".to_owned()
                ),
                (12, "lp.accuracyMethod: not understood, ignored".to_owned()),
            ]
        );
        let other = settings_of("alg.type = \"eltl\"\n").unwrap();
        assert!(other.settings.is_empty());
        assert_eq!(other.not_understood.len(), 1);
        assert!(other.not_understood[0].1.contains("eltl"), "{other:?}");
    }

    #[test]
    fn a_bad_value_of_an_understood_setting_is_an_error_naming_file_and_line() {
        for (text, needle) in [
            ("alg.noisePercentage = 130\n", "out of range"),
            (
                "alg.maxExecutionTimeInSeconds = \"soon\"\n",
                "expected a number",
            ),
            ("op.useNegation = maybe\n", "expected true or false"),
            ("alg.startClass = \"zz:Person\"\n", "unknown prefix"),
            ("alg.maxNrOfResults = 0\n", "below"),
        ] {
            let e = settings_of(text).unwrap_err().to_string();
            assert!(e.starts_with("s.conf:5:"), "{e}");
            assert!(e.contains(needle), "{e}");
        }
    }
}
