//! Phantom Go players: they choose a try from what one side knows (a
//! [`bitboards::phantom::View`]) and nothing else — every entry point takes the view,
//! the rules, komi, the limits and a seed, never the referee or the full board.
//!
//! * [`belief`]: full boards sampled from a view (determinization).
//! * `choice`: what every player shares — which player it is ([`PhantomPlayer`]), its
//!   settings ([`PlayerSettings`]), the budget it spends and the try it returns
//!   ([`Choice`]).
//! * [`flat`]: flat Monte-Carlo (Cazenave 2005): random playouts after each candidate
//!   on sampled boards, the best mean wins.
//! * [`ismcts`]: information-set MCTS, one tree per side.
//! * [`player`]: the belief-state search (the Go MCTS on each sample, visits summed
//!   over samples), the combined player (the belief search proposes, flat Monte-Carlo
//!   decides; the default) and the choice among the players ([`PhantomPlayer`]).
//! * [`params`]: the players' numeric tunables, each with what was measured to choose
//!   it.

pub mod belief;
mod choice;
pub mod flat;
pub mod ismcts;
pub mod params;
pub mod player;

pub use belief::{Belief, Sample, deduced_opponent};
pub use choice::{Choice, PhantomPlayer, PlayerSettings};
pub use player::{choose, try_candidates};

pub(crate) use crate::go::playout::below;
