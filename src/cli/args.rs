//! Argument hygiene around clap: options written before a command name are moved after it, and
//! argument errors are reported on one line.

use super::io::{Io, say};
use super::{EXIT_BAD_INPUT, EXIT_OK};
use clap::error::ErrorKind;
use std::ffi::OsString;

/// What option hoisting needs to know of the command line, read off clap's own definition
/// (so that a new command or option cannot be forgotten here).
struct Grammar {
    /// Each command's name with the names of its subcommands (`rules` has `check`, ...).
    commands: Vec<(String, Vec<String>)>,
    /// Options that take a value as the next argument (when not written `--name=value`).
    valued: Vec<String>,
}

impl Grammar {
    fn of(cmd: &clap::Command) -> Grammar {
        let mut valued = Vec::new();
        collect_valued(cmd, &mut valued);
        let commands = cmd
            .get_subcommands()
            .map(|c| {
                let subs = c
                    .get_subcommands()
                    .map(|s| s.get_name().to_string())
                    .collect();
                (c.get_name().to_string(), subs)
            })
            .collect();
        Grammar { commands, valued }
    }
}

/// Adds the options of `cmd` and its subcommands that take a value.
fn collect_valued(cmd: &clap::Command, valued: &mut Vec<String>) {
    for arg in cmd.get_arguments() {
        // `--stats=VIEW` takes its value only after `=`.
        if !arg.get_action().takes_values() || arg.is_positional() || arg.is_require_equals_set() {
            continue;
        }
        let longs = arg.get_long_and_visible_aliases().unwrap_or_default();
        valued.extend(longs.into_iter().map(|l| format!("--{l}")));
        if let Some(short) = arg.get_short() {
            valued.push(format!("-{short}"));
        }
    }
    for sub in cmd.get_subcommands() {
        collect_valued(sub, valued);
    }
}

/// Options that must stay where they are: help and version.
const STAY: &[&str] = &["-h", "--help", "-V", "--version"];

/// Moves options written before a command name after it: `slink --rules DIR rules check`
/// becomes `slink rules check --rules DIR`, and `slink --stats gen ...` becomes
/// `slink gen --stats ...`. Without this, clap would take the command name for an input file
/// (the top level accepts the options and files of `solve`). An option the command does not
/// take is then reported by clap against that command.
pub fn hoist_options(args: Vec<OsString>) -> Vec<OsString> {
    let grammar = Grammar::of(&<super::Cli as clap::CommandFactory>::command());
    let mut i = 1;
    let mut options = Vec::new();
    while i < args.len() {
        let Some(arg) = args[i].to_str() else { break };
        if arg == "-" || arg == "--" || !arg.starts_with('-') {
            break;
        }
        if STAY.contains(&arg) {
            return args;
        }
        options.push(i);
        if grammar.valued.iter().any(|v| v == arg) {
            i += 1;
            options.push(i);
        }
        i += 1;
    }
    let command = args.get(i).and_then(|a| a.to_str());
    let Some((_, subcommands)) = grammar
        .commands
        .iter()
        .find(|(name, _)| command == Some(name.as_str()))
    else {
        return args;
    };
    if options.is_empty() {
        return args;
    }
    let mut path_end = i + 1;
    if args
        .get(path_end)
        .and_then(|a| a.to_str())
        .is_some_and(|c| subcommands.iter().any(|s| s == c))
    {
        path_end += 1;
    }
    let mut out = Vec::with_capacity(args.len());
    out.push(args[0].clone());
    out.extend(args[i..path_end.min(args.len())].iter().cloned());
    out.extend(options.iter().filter_map(|&k| args.get(k).cloned()));
    out.extend(args[path_end.min(args.len())..].iter().cloned());
    out
}

/// Prints a clap error (help and version as they are; an argument error on one line) and
/// returns the exit status.
pub fn report(io: &mut Io, e: &clap::Error) -> i32 {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // A closed standard output is not worth a word.
            let _ = io.print(&e.render().to_string());
            EXIT_OK
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            io.say_raw(&e.render().to_string());
            EXIT_BAD_INPUT
        }
        _ => {
            say!(io, "slink: {}", one_line(&e.render().to_string()));
            EXIT_BAD_INPUT
        }
    }
}

/// Condenses clap's rendered error (message, tips, usage, "For more information") into one
/// line: the message, the tips, and which help to read.
fn one_line(rendered: &str) -> String {
    let mut lines = rendered.lines().peekable();
    let first = lines.next().unwrap_or("").trim();
    let mut line = first.strip_prefix("error: ").unwrap_or(first).to_string();
    // The indented lines right after the message (missing arguments, say) belong to it.
    let mut details = Vec::new();
    while let Some(l) = lines.next_if(|l| !l.trim().is_empty()) {
        details.push(l.trim());
    }
    if !details.is_empty() {
        line = format!("{} {}", line.trim_end_matches(':'), details.join(", "));
    }
    let mut help = "slink --help".to_string();
    for l in lines {
        let l = l.trim();
        if let Some(tip) = l.strip_prefix("tip: ") {
            line.push_str(&format!(" ({tip})"));
        } else if let Some(usage) = l.strip_prefix("Usage: ") {
            // "slink gen --rows <ROWS> ..." -> "slink gen --help".
            let words: Vec<&str> = usage
                .split_whitespace()
                .take_while(|w| !w.starts_with(['-', '[', '<']))
                .collect();
            if !words.is_empty() {
                help = format!("{} --help", words.join(" "));
            }
        }
    }
    format!("{line}; see `{help}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hoisted(args: &[&str]) -> Vec<String> {
        let args = args.iter().map(OsString::from).collect();
        hoist_options(args)
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn options_before_a_command_go_after_it() {
        assert_eq!(
            hoisted(&["slink", "--rules", "d", "rules", "check"]),
            ["slink", "rules", "check", "--rules", "d"]
        );
        assert_eq!(
            hoisted(&["slink", "--stats", "gen", "--rows", "3"]),
            ["slink", "gen", "--stats", "--rows", "3"]
        );
        assert_eq!(
            hoisted(&["slink", "--rules=d", "--no-search", "solve", "f.in"]),
            ["slink", "solve", "--rules=d", "--no-search", "f.in"]
        );
    }

    #[test]
    fn every_command_and_valued_option_of_clap_is_known() {
        // `discover` was once left out of a hand-kept list.
        assert_eq!(
            hoisted(&[
                "slink", "--rules", "rules", "rules", "discover", "--window", "1x1"
            ]),
            [
                "slink", "rules", "discover", "--rules", "rules", "--window", "1x1"
            ]
        );
        let grammar = Grammar::of(&<crate::cli::Cli as clap::CommandFactory>::command());
        for option in ["--window", "--every", "--to", "--rows", "--timeout", "-j"] {
            assert!(grammar.valued.iter().any(|v| v == option), "{option}");
        }
    }

    #[test]
    fn other_command_lines_stay_as_they_are() {
        for args in [
            &["slink", "--rules", "d", "f.in"][..],
            &["slink", "rules", "check", "d"],
            &["slink", "--help", "gen"],
            &["slink", "-", "gen"],
            &["slink"],
        ] {
            assert_eq!(hoisted(args), args);
        }
    }

    #[test]
    fn missing_arguments_are_named_on_the_line() {
        let rendered = "error: the following required arguments were not provided:\n  --rows <ROWS>\n\nUsage: slink gen --rows <ROWS> --cols <COLS>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(rendered),
            "the following required arguments were not provided --rows <ROWS>; see `slink gen --help`"
        );
    }

    #[test]
    fn clap_errors_fit_on_one_line() {
        let rendered = "error: unexpected argument '--rule' found\n\n  tip: a similar argument exists: '--rules'\n\nUsage: slink gen --rows <ROWS> --cols <COLS>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(rendered),
            "unexpected argument '--rule' found (a similar argument exists: '--rules'); see `slink gen --help`"
        );
    }
}
