//! `site check` and `site build`: the command line over the generator library.

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: site <check|build> [--root DIR] [--out DIR]
  check   load, validate and render the site without writing anything
  build   build the site and publish it atomically (default output: ROOT/dist)";

struct Args {
    command: String,
    root: PathBuf,
    out: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let command = args.next().ok_or_else(|| USAGE.to_string())?;
    let mut parsed = Args {
        command,
        root: PathBuf::from("."),
        out: None,
    };
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        match flag.as_str() {
            "--root" => parsed.root = PathBuf::from(value),
            "--out" => parsed.out = Some(PathBuf::from(value)),
            _ => return Err(format!("unknown option {flag}\n{USAGE}")),
        }
    }
    Ok(parsed)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let project = generator::Project::at(&args.root);
    let result = match args.command.as_str() {
        "check" => generator::check(&project).map(|outputs| {
            println!(
                "site check: {} files render without problems",
                outputs.len()
            );
        }),
        "build" => {
            let out = args.out.unwrap_or_else(|| args.root.join("dist"));
            generator::build(&project, &out).map(|r| {
                println!(
                    "site build: {} files ({} pages, {} KiB) in {} ms -> {}",
                    r.files,
                    r.pages,
                    r.bytes / 1024,
                    r.elapsed.as_millis(),
                    out.display()
                );
            })
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
