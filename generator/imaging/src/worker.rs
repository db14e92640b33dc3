//! The worker program and its client. One run handles one image: its bytes on standard input,
//! the job on the command line, the answer on standard output.
//!
//! | job | command line | answer |
//! |---|---|---|
//! | its size as shown, and whether it needs turning | `imaging header` | `WIDTH HEIGHT UPRIGHT` (`1` or `0`) |
//! | whether an upload may be kept | `imaging inspect` | `ok EXT WIDTH HEIGHT`, `unknown`, `too-large WIDTH HEIGHT` or `unreadable WHY` |
//! | its variants | `imaging variants AVIF_QUALITY AVIF_SPEED WEBP_QUALITY JPEG_QUALITY EXT:WIDTH…` | each variant in order: its length (8 bytes, little-endian), then its bytes |
//!
//! Exit status 0 is an answer; 3, the image's own problem (it does not decode), said on
//! standard error; anything else (2 for a wrong command line, a crash, a signal) is the
//! worker's failure, which says nothing about the image.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::{Format, ImageProblem, Inspected, Settings};

/// The worker program's name, beside the sidecar's and `site`'s.
pub const PROGRAM: &str = "imaging";

/// The exit status of an image's own problem.
pub const IMAGE_PROBLEM: i32 = 3;

/// Why the worker gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The image's own problem, as the worker said it: the same bytes will fail again.
    Image(String),
    /// The worker could not run, or ended without an answer: nothing is known of the image.
    Worker(String),
}

/// An image's size as shown (after the camera's orientation), from its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub width: u32,
    pub height: u32,
    /// Needs no turning: its own bytes can stand for its upright copy.
    pub upright: bool,
}

impl Header {
    /// The worker's answer to `header`, `WIDTH HEIGHT UPRIGHT`; the image cache keeps it too.
    pub fn line(&self) -> String {
        format!(
            "{} {} {}\n",
            self.width,
            self.height,
            u8::from(self.upright)
        )
    }

    /// A [`Header::line`] read back.
    pub fn parse(text: &str) -> Option<Header> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        match fields[..] {
            [w, h, up @ ("0" | "1")] => Some(Header {
                width: w.parse().ok()?,
                height: h.parse().ok()?,
                upright: up == "1",
            }),
            _ => None,
        }
    }
}

/// The worker program, found and ready to start.
#[derive(Debug, Clone)]
pub struct Worker {
    program: PathBuf,
}

impl Worker {
    pub fn at(program: impl Into<PathBuf>) -> Worker {
        Worker {
            program: program.into(),
        }
    }

    /// The worker beside the running program (the sidecar, `site`), or one folder up (a test
    /// program under `target/debug/deps/`).
    pub fn find() -> Result<Worker, Failure> {
        let exe = std::env::current_exe()
            .map_err(|e| Failure::Worker(format!("this program's path is unknown: {e}")))?;
        let dir = exe.parent().unwrap_or(Path::new("."));
        let candidates = [Some(dir), dir.parent()];
        let found = candidates
            .into_iter()
            .flatten()
            .map(|d| d.join(PROGRAM))
            .find(|p| p.is_file());
        found.map(Worker::at).ok_or_else(|| {
            Failure::Worker(format!(
                "the image worker `{PROGRAM}` is not in {} (build it with `cargo build -p imaging`, beside this program)",
                dir.display()
            ))
        })
    }

    pub fn program(&self) -> &Path {
        &self.program
    }

    /// The image's size as shown, reading its header within the limits.
    pub fn header(&self, bytes: &[u8]) -> Result<Header, Failure> {
        let answer = self.run(&["header".to_string()], bytes)?;
        let text = String::from_utf8_lossy(&answer);
        Header::parse(&text).ok_or_else(|| unexpected(&text))
    }

    /// Whether `bytes` are a JPEG, PNG or WebP within the limits, decoded whole: what an upload
    /// must pass before anything is kept. A worker that cannot say is [`ImageProblem::Unchecked`].
    pub fn inspect(&self, bytes: &[u8]) -> Result<Inspected, ImageProblem> {
        let answer = match self.run(&["inspect".to_string()], bytes) {
            Ok(answer) => answer,
            Err(Failure::Image(why)) => return Err(ImageProblem::Unreadable(why)),
            Err(Failure::Worker(why)) => return Err(ImageProblem::Unchecked(why)),
        };
        let text = String::from_utf8_lossy(&answer);
        let text = text.trim_end();
        let fields: Vec<&str> = text.split(' ').collect();
        let number = |s: &str| s.parse::<u32>().ok();
        match fields[..] {
            ["ok", ext, w, h] => match (Format::from_ext(ext), number(w), number(h)) {
                (Some(format), Some(width), Some(height)) => Ok(Inspected {
                    format,
                    width,
                    height,
                }),
                _ => Err(ImageProblem::Unchecked(unexpected_text(text))),
            },
            ["unknown"] => Err(ImageProblem::UnknownFormat),
            ["too-large", w, h] => match (number(w), number(h)) {
                (Some(width), Some(height)) => Err(ImageProblem::TooLarge { width, height }),
                _ => Err(ImageProblem::Unchecked(unexpected_text(text))),
            },
            _ => match text.strip_prefix("unreadable ") {
                Some(why) => Err(ImageProblem::Unreadable(why.to_string())),
                None => Err(ImageProblem::Unchecked(unexpected_text(text))),
            },
        }
    }

    /// The variants `wanted` of the image `bytes`, in that order, made with `settings`.
    pub fn variants(
        &self,
        bytes: &[u8],
        wanted: &[(Format, u32)],
        settings: &Settings,
    ) -> Result<Vec<Vec<u8>>, Failure> {
        let mut args = vec![
            "variants".to_string(),
            settings.avif_quality.to_string(),
            settings.avif_speed.to_string(),
            settings.webp_quality.to_string(),
            settings.jpeg_quality.to_string(),
        ];
        args.extend(wanted.iter().map(|(f, w)| format!("{}:{w}", f.ext())));
        let answer = self.run(&args, bytes)?;
        let mut rest = &answer[..];
        let mut made = Vec::with_capacity(wanted.len());
        while let Some((len, after)) = rest.split_first_chunk::<8>() {
            let len = usize::try_from(u64::from_le_bytes(*len)).unwrap_or(usize::MAX);
            let (one, after) = after
                .split_at_checked(len)
                .ok_or_else(|| Failure::Worker("the worker's answer was cut short".into()))?;
            made.push(one.to_vec());
            rest = after;
        }
        match (rest.is_empty(), made.len() == wanted.len()) {
            (true, true) => Ok(made),
            _ => Err(Failure::Worker(format!(
                "the worker answered {} variants of {}",
                made.len(),
                wanted.len()
            ))),
        }
    }

    /// Runs one job: `input` in, the answer out. The child starts from an empty environment.
    fn run(&self, args: &[String], input: &[u8]) -> Result<Vec<u8>, Failure> {
        let mut child = subprocess::command(&self.program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                Failure::Worker(format!("{} does not start: {e}", self.program.display()))
            })?;
        if let Some(mut stdin) = child.stdin.take() {
            // A worker that stopped early (a wrong command line) closes its input: its status
            // says why.
            let _ = stdin.write_all(input);
        }
        let output = child
            .wait_with_output()
            .map_err(|e| Failure::Worker(format!("the worker's answer was lost: {e}")))?;
        let said = || String::from_utf8_lossy(&output.stderr).trim().to_string();
        match output.status.code() {
            Some(0) => Ok(output.stdout),
            Some(IMAGE_PROBLEM) => Err(Failure::Image(said())),
            _ => Err(Failure::Worker(format!(
                "the worker ended with {}: {}",
                output.status,
                said()
            ))),
        }
    }
}

fn unexpected_text(text: &str) -> String {
    let start: String = text.chars().take(120).collect();
    format!("the worker's answer makes no sense: {start:?}")
}

fn unexpected(text: &str) -> Failure {
    Failure::Worker(unexpected_text(text))
}

/// The worker's answer to one job: standard output, or the image's problem, or a wrong
/// command line.
#[cfg(feature = "codecs")]
pub enum Answer {
    Done(Vec<u8>),
    ImageProblem(String),
    Usage(String),
}

/// The worker's side: the job `args` on the image `input`.
#[cfg(feature = "codecs")]
pub fn answer(args: &[String], input: &[u8]) -> Answer {
    match args.split_first() {
        Some((job, [])) if job == "header" => match crate::dimensions(input) {
            Ok((width, height)) => {
                let upright = crate::is_upright(input);
                let header = Header {
                    width,
                    height,
                    upright,
                };
                Answer::Done(header.line().into_bytes())
            }
            Err(why) => Answer::ImageProblem(why),
        },
        Some((job, [])) if job == "inspect" => {
            let line = match crate::inspect(input) {
                Ok(i) => format!("ok {} {} {}", i.format.ext(), i.width, i.height),
                Err(ImageProblem::UnknownFormat) => "unknown".to_string(),
                Err(ImageProblem::TooLarge { width, height }) => {
                    format!("too-large {width} {height}")
                }
                Err(ImageProblem::Unreadable(why) | ImageProblem::Unchecked(why)) => {
                    format!("unreadable {}", why.replace('\n', " "))
                }
            };
            Answer::Done(format!("{line}\n").into_bytes())
        }
        Some((job, [aq, speed, wq, jq, wanted @ ..])) if job == "variants" => {
            match variants_job(aq, speed, wq, jq, wanted) {
                Ok((settings, wanted)) => match crate::variants(input, &wanted, &settings) {
                    Ok(made) => Answer::Done(frames(made)),
                    Err(why) => Answer::ImageProblem(why),
                },
                Err(why) => Answer::Usage(why),
            }
        }
        _ => Answer::Usage(format!(
            "usage: {PROGRAM} header | inspect | variants AVIF_QUALITY AVIF_SPEED WEBP_QUALITY JPEG_QUALITY EXT:WIDTH… (the image on standard input)"
        )),
    }
}

#[cfg(feature = "codecs")]
fn variants_job(
    aq: &str,
    speed: &str,
    wq: &str,
    jq: &str,
    wanted: &[String],
) -> Result<(Settings, Vec<(Format, u32)>), String> {
    let bad = |what: &str, value: &str| format!("{what} is not a number: {value:?}");
    let settings = Settings {
        widths: &[],
        avif_quality: aq.parse().map_err(|_| bad("AVIF_QUALITY", aq))?,
        avif_speed: speed.parse().map_err(|_| bad("AVIF_SPEED", speed))?,
        webp_quality: wq.parse().map_err(|_| bad("WEBP_QUALITY", wq))?,
        jpeg_quality: jq.parse().map_err(|_| bad("JPEG_QUALITY", jq))?,
    };
    let wanted = wanted
        .iter()
        .map(|one| {
            let (ext, width) = one.split_once(':').unwrap_or((one, ""));
            match (Format::from_ext(ext), width.parse::<u32>()) {
                (Some(format), Ok(width)) if width > 0 => Ok((format, width)),
                _ => Err(format!("not a variant (EXT:WIDTH): {one:?}")),
            }
        })
        .collect::<Result<_, String>>()?;
    Ok((settings, wanted))
}

#[cfg(feature = "codecs")]
fn frames(made: Vec<Vec<u8>>) -> Vec<u8> {
    let mut out = Vec::with_capacity(made.iter().map(|m| m.len() + 8).sum());
    for one in made {
        out.extend_from_slice(&(one.len() as u64).to_le_bytes());
        out.extend_from_slice(&one);
    }
    out
}
