//! `site check` and `site build`: the command line over the generator library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tracing_subscriber::EnvFilter;

/// mimalloc for the command line: a clean build of 10,000 articles allocates millions of small
/// strings across threads and takes 9% less time with it than with glibc's allocator (peak
/// memory 194 to 240 MiB). The sidecar, a server that lives for weeks, keeps the system
/// allocator: after its start, 200 requests and a rebuild it held 95 MiB with mimalloc
/// against 38 MiB (the developers' testing page).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Checks and builds the site from the files of `content/` and `templates/`.
#[derive(Parser)]
#[command(name = "site", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The project's folder (with content/ and templates/).
    #[arg(long, global = true, default_value = ".")]
    root: PathBuf,
    /// Problems and warnings in Polish, each at its path in the repository
    /// (content/blog/x.md:5): what the pre-push hook shows an editor.
    #[arg(long, global = true)]
    polish: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Load, validate and render the site without writing anything.
    Check,
    /// Build the site and publish it atomically. API_ORIGIN in the environment is where
    /// _redirects proxies /api/*, ADMIN_ORIGIN where the edge sends the panel's address.
    Build {
        /// The output folder (default: ROOT/dist).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Build once, then change FILE (a Markdown file: a new paragraph; a YAML file: its phone
    /// number) and rebuild incrementally, N times; prints the milliseconds of each rebuild and
    /// publish (for make bench).
    RebuildTiming {
        /// The file to change.
        #[arg(long)]
        edit: PathBuf,
        /// How many rebuilds.
        #[arg(long, default_value_t = 5)]
        times: usize,
        /// The output folder (default: ROOT/dist).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// An origin from the environment variable `name`, if set.
fn origin_of(name: &str) -> Result<Option<String>, String> {
    match std::env::var(name).ok().filter(|v| !v.trim().is_empty()) {
        Some(v) => site::edge::check_origin(&v)
            .map(Some)
            .map_err(|message| format!("{name}: {message}")),
        None => Ok(None),
    }
}

/// Changes `file` a little, differently each time, so that its outputs must be rebuilt.
fn touch(file: &Path, i: usize) -> Result<(), site::Error> {
    let text = std::fs::read_to_string(file).map_err(|e| site::Error::read(file, e))?;
    let changed = if file.extension().is_some_and(|e| e == "md") {
        format!("{text}\nZmiana numer {i}.\n")
    } else {
        text.lines()
            .map(|l| {
                if l.starts_with("phone:") {
                    format!("phone: \"+48 58 000 00 {i:02}\"")
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    };
    std::fs::write(file, changed).map_err(|e| site::Error::write(file, e))
}

/// The CPU time this thread has used, in milliseconds (Linux), where the machine is busy with
/// other work and wall time says little.
fn thread_cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e6)
}

fn rebuild_timing(
    project: &site::Project,
    out: &Path,
    file: &Path,
    times: usize,
) -> Result<(), site::Error> {
    let mut builder = site::Builder::new(project.clone());
    let first = builder.build(out)?;
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{{\"full_ms\": {:.1}, \"rendered\": {}, \"gate_ms\": {:.1}}}",
        ms(first.elapsed),
        first.rendered,
        ms(first.phases.gate)
    );
    for i in 0..times {
        touch(file, i)?;
        // What the sidecar does after a save: render in memory, told which file it wrote,
        // and serve that (the visitor sees the change), then publish the folder a CDN syncs
        // from. The same edit found by looking at every file is timed too.
        let started = std::time::Instant::now();
        let cpu = thread_cpu_ms();
        let build = builder.render_changed(std::slice::from_ref(&file.to_path_buf()))?;
        let served = started.elapsed();
        let cpu = thread_cpu_ms() - cpu;
        let publish_started = std::time::Instant::now();
        builder.publish(out, &build)?;
        let published = publish_started.elapsed();
        println!(
            "{{\"incremental_ms\": {:.1}, \"cpu_ms\": {cpu:.1}, \"rendered\": {}, \"gated\": {}, \"load_ms\": {:.1}, \"render_ms\": {:.1}, \"gate_ms\": {:.2}, \"publish_ms\": {:.1}}}",
            ms(served),
            build.rendered,
            build.gated,
            ms(build.phases.load),
            ms(build.phases.render),
            ms(build.phases.gate),
            ms(published)
        );
    }
    touch(file, times)?;
    let started = std::time::Instant::now();
    let build = builder.render()?;
    println!(
        "{{\"scan_ms\": {:.1}, \"rendered\": {}, \"load_ms\": {:.1}, \"render_ms\": {:.1}}}",
        ms(started.elapsed()),
        build.rendered,
        ms(build.phases.load),
        ms(build.phases.render)
    );
    Ok(())
}

/// Warnings do not fail a check or a build; each names its file and line.
/// How the command speaks of problems: in English for developers, or in Polish at their
/// repository paths for editors (`--polish`).
struct Voice {
    polish: bool,
    content_dir: PathBuf,
}

impl Voice {
    fn warnings(&self, warnings: &[content::Diagnostic]) {
        for w in warnings {
            match self.polish {
                true => eprintln!(
                    "uwaga: {}",
                    site::polish_line(w, &self.content_dir, "content/")
                ),
                false => eprintln!("warning: {w}"),
            }
        }
    }

    fn error(&self, e: &site::Error) {
        match self.polish {
            true => {
                for line in e.polish(&self.content_dir, "content/") {
                    eprintln!("błąd: {line}");
                }
            }
            false => eprintln!("error: {e}"),
        }
    }
}

fn images_line(images: &site::images::ImageStats) -> String {
    format!(
        "; {} photographs in {} variants, {} encoded now",
        images.sources, images.variants, images.encoded
    )
}

fn main() -> ExitCode {
    // The library's warnings and the stages of a build (RUST_LOG, default info), on standard
    // error: standard output is the command's report, which `make bench` reads.
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let project = site::Project::at(&cli.root);
    let voice = Voice {
        polish: cli.polish,
        content_dir: project.content_dir.clone(),
    };
    let result = match cli.command {
        Command::Check => site::Builder::new(project).once().render().map(|build| {
            voice.warnings(&build.warnings);
            match voice.polish {
                true => println!(
                    "site check: wszystkie pliki ({}) renderują się bez problemów.",
                    build.outputs.len()
                ),
                false => println!(
                    "site check: {} files render without problems{}",
                    build.outputs.len(),
                    images_line(&build.images)
                ),
            }
        }),
        Command::Build { out } => {
            let out = out.unwrap_or_else(|| cli.root.join("dist"));
            // The settings of the environment: where the edge proxies /api/* and where it
            // sends the panel's address (_redirects, _nginx.conf), how visits are measured.
            let (api_origin, admin_origin) =
                match (origin_of("API_ORIGIN"), origin_of("ADMIN_ORIGIN")) {
                    (Ok(api), Ok(admin)) => (api, admin),
                    (Err(message), _) | (_, Err(message)) => {
                        eprintln!("{message}");
                        return ExitCode::from(2);
                    }
                };
            let measurement =
                match content::measurement::Measurement::from_lookup(|k| std::env::var(k).ok()) {
                    Ok(measurement) => measurement,
                    Err((name, message)) => {
                        eprintln!("{name}: {message}");
                        return ExitCode::from(2);
                    }
                };
            let mut builder = site::Builder::new(project.clone())
                .once()
                .with_api_origin(api_origin)
                .with_admin_origin(admin_origin)
                .with_measurement(measurement);
            let built = builder.build(&out);
            // A one-shot command: the process's end frees the builder's caches at once, where
            // dropping them piece by piece took about 2.5% of a clean build's CPU.
            std::mem::forget(builder);
            built.map(|r| {
                voice.warnings(&r.warnings);
                println!(
                    "site build: {} files ({} pages, {} KiB) in {} ms (load {}, render {} of which gate {} for {} pages, publish {}){} -> {}",
                    r.files,
                    r.pages,
                    r.bytes / 1024,
                    r.elapsed.as_millis(),
                    r.phases.load.as_millis(),
                    r.phases.render.as_millis(),
                    r.phases.gate.as_millis(),
                    r.rendered,
                    r.phases.publish.as_millis(),
                    images_line(&r.images),
                    out.display()
                );
            })
        }
        Command::RebuildTiming { edit, times, out } => {
            let out = out.unwrap_or_else(|| cli.root.join("dist"));
            rebuild_timing(&project, &out, &edit, times)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            voice.error(&e);
            ExitCode::FAILURE
        }
    }
}
