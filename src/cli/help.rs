//! `oxilearn help …`, and the `--help` that fits a screen: a learner's own options and the
//! operator's language (`help learner NAME`) and the endpoint options (`help endpoint`) are
//! hidden from every command's `--help` and shown here instead. They still parse everywhere.

use anyhow::bail;
use clap::CommandFactory;

use super::args::{Cli, HelpArgs};
use super::describe_class::EXAMPLES_HEADING;
use super::learners::SearchArgs;
use super::learners::{HELD_OUT_HEADING, REGISTRY, group, is_learner_flag};
use super::options::ENDPOINT_HEADING;

/// The command line's clap command: detail options hidden from `--help` (see the module
/// docs).
pub fn command() -> clap::Command {
    hide_details(Cli::command())
}

fn hide_details(cmd: clap::Command) -> clap::Command {
    static BUDGETS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let budgets = BUDGETS.get_or_init(group::<SearchArgs>);
    let mut cmd = cmd.mut_args(|a| {
        let long = a.get_long().unwrap_or_default().to_owned();
        let endpoint = matches!(
            a.get_help_heading(),
            Some(ENDPOINT_HEADING | EXAMPLES_HEADING)
        );
        let learner = (is_learner_flag(&long) && !budgets.contains(&long))
            || a.get_help_heading() == Some(HELD_OUT_HEADING);
        if endpoint || learner { a.hide(true) } else { a }
    });
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, hide_details);
    }
    if cmd.get_arguments().any(|a| a.get_id() == "algorithm") {
        cmd = cmd.after_help(
            "Each learner's options, --test and the operator's language: `oxilearn help learner NAME` \
             (`oxilearn help learner` lists them). Endpoint options: `oxilearn help endpoint`. \
             Examples drawn from the KB (--describe-class, --positives-query): `oxilearn help \
             examples`.",
        );
    }
    cmd
}

pub fn run(args: HelpArgs) -> anyhow::Result<()> {
    let topic: Vec<&str> = args.topic.iter().map(String::as_str).collect();
    let text = match topic.as_slice() {
        [] => command().render_long_help().to_string(),
        ["learner"] | ["learners"] => learners(),
        ["learner", name] => learner(name)?,
        ["endpoint"] | ["endpoints"] => endpoint(),
        ["examples"] => examples(),
        path => command_help(path)?,
    };
    outln!("{}", text.trim_end());
    Ok(())
}

/// The learners, one line each.
fn learners() -> String {
    let mut out = String::from("Learners (`oxilearn help learner NAME` for one's options):\n");
    for e in REGISTRY {
        out.push_str(&format!("  {:<14} {}\n", e.name, e.about));
    }
    out
}

/// `learn --algorithm NAME`'s options: the flags the learner takes, nothing else.
fn learner(name: &str) -> anyhow::Result<String> {
    let Some(entry) = REGISTRY.iter().find(|e| e.name == name) else {
        bail!(
            "no learner {name}; known: {}",
            REGISTRY
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    let learn = learn_command();
    let mut cmd = learn
        .mut_args(|a| {
            let long = a.get_long().unwrap_or_default().to_owned();
            let held_out = a.get_help_heading() == Some(HELD_OUT_HEADING);
            a.hide(!(held_out || is_learner_flag(&long) && entry.uses(&long)))
        })
        .about(entry.about)
        .override_usage(format!("oxilearn learn --algorithm {name} [OPTIONS]"))
        .after_help("");
    Ok(cmd.render_long_help().to_string())
}

/// Every command's endpoint options (`--endpoint URL` itself is in every `--help`).
fn endpoint() -> String {
    heading_topic(
        ENDPOINT_HEADING,
        "Options of every command that reads a SPARQL endpoint (--endpoint URL)",
        "oxilearn COMMAND --endpoint URL [OPTIONS]",
    )
}

/// `learn`'s options that draw the examples from the KB instead of a problem file.
fn examples() -> String {
    heading_topic(
        EXAMPLES_HEADING,
        "Examples drawn from the KB instead of --problems: a class to describe, or SPARQL queries",
        "oxilearn learn (--describe-class CLASS | --positives-query QUERY) [OPTIONS]",
    )
}

/// `learn`'s options under one heading, alone.
fn heading_topic(heading: &str, about: &'static str, usage: &'static str) -> String {
    learn_command()
        .mut_args(|a| {
            let shown = a.get_help_heading() == Some(heading);
            a.hide(!shown)
        })
        .about(about)
        .override_usage(usage)
        .after_help("")
        .render_long_help()
        .to_string()
}

/// `learn`, unhidden details and all (for picking some to show).
fn learn_command() -> clap::Command {
    Cli::command()
        .find_subcommand("learn")
        .cloned()
        .unwrap_or_else(|| clap::Command::new("learn"))
}

/// The `--help` of a command (`bench scale`: a subcommand's).
fn command_help(path: &[&str]) -> anyhow::Result<String> {
    let mut cmd = command();
    for name in path {
        let Some(sub) = cmd.find_subcommand(name).cloned() else {
            bail!(
                "no help topic {:?}: try a command (learn, cv, predict, …), `learner NAME` or \
                 `endpoint`",
                path.join(" ")
            );
        };
        cmd = sub;
    }
    let mut cmd = cmd.bin_name(format!("oxilearn {}", path.join(" ")));
    Ok(cmd.render_long_help().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learn_help_fits_a_screen_and_points_to_the_rest() {
        let help = command()
            .find_subcommand("learn")
            .unwrap()
            .clone()
            .render_long_help()
            .to_string();
        let lines = help.lines().count();
        assert!(lines <= 80, "learn --help has {lines} lines:\n{help}");
        assert!(help.contains("--max-runtime") && help.contains("help learner"));
        assert!(!help.contains("--expansion-penalty") && !help.contains("--max-rows"));
    }

    #[test]
    fn each_learner_shows_its_own_options_only() {
        let celoe = learner("celoe").unwrap();
        assert!(celoe.contains("--expansion-penalty") && celoe.contains("--has-value"));
        assert!(!celoe.contains("--structure") && !celoe.contains("--max-rows"));
        let tbc = learner("tbc").unwrap();
        assert!(tbc.contains("--structure") && tbc.contains("--max-length"));
        assert!(!tbc.contains("--noise") && !tbc.contains("--quality"));
        for e in REGISTRY {
            assert!(learner(e.name).unwrap().contains(e.about), "{}", e.name);
        }
        assert!(learner("nope").unwrap_err().to_string().contains("celoe"));
    }

    /// The flags every command has that prints results, or runs long.
    #[test]
    fn common_flags_are_the_same_on_every_command() {
        let cli = Cli::command();
        let has = |cmd: &str, flag: &str| {
            cli.find_subcommand(cmd)
                .unwrap()
                .get_arguments()
                .any(|a| a.get_long() == Some(flag))
        };
        for cmd in [
            "learn",
            "cv",
            "evaluate",
            "instances",
            "signature",
            "predict",
            "enrich",
            "cluster",
        ] {
            assert!(has(cmd, "json") && has(cmd, "quiet"), "{cmd}");
        }
        for cmd in ["learn", "cv", "predict", "enrich", "cluster"] {
            assert!(has(cmd, "max-runtime"), "{cmd}");
        }
    }

    #[test]
    fn the_endpoint_options_have_a_page_of_their_own() {
        let text = endpoint();
        assert!(text.contains("--max-rows") && text.contains("--auth-file"));
        assert!(!text.contains("--problems"));
    }
}
