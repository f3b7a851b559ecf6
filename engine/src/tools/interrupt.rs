//! Ctrl-C and SIGTERM for the long batch commands and the arena: the first signal
//! raises a flag that the command checks between items (it then drops the unfinished
//! item, keeps what is written and says how to resume); a second one exits at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status after a second signal (128 + SIGINT, as a shell reports Ctrl-C).
const EXIT_ON_SECOND_SIGNAL: i32 = 130;

/// A flag raised by the first Ctrl-C or SIGTERM. Where no handler can be installed
/// (one is already installed in this process), the flag simply never rises.
pub fn stop_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_ON_SECOND_SIGNAL);
        }
    });
    stop
}
