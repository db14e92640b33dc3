//! The image worker: one job on one image, its bytes on standard input (see `imaging::worker`).
//! The generator and the sidecar start it; it is not meant to be run by hand.

use std::io::{Read, Write};
use std::process::ExitCode;

use imaging::worker::{answer, Answer, IMAGE_PROBLEM};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut input) {
        eprintln!("the image could not be read from standard input: {e}");
        return ExitCode::from(2);
    }
    match answer(&args, &input) {
        Answer::Done(out) => match std::io::stdout().lock().write_all(&out) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("the answer could not be written: {e}");
                ExitCode::from(2)
            }
        },
        Answer::ImageProblem(why) => {
            eprintln!("{why}");
            ExitCode::from(IMAGE_PROBLEM as u8)
        }
        Answer::Usage(why) => {
            eprintln!("{why}");
            ExitCode::from(2)
        }
    }
}
