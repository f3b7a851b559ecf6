//! The exact outcome of a Chaos Clock position by retrograde analysis of every state
//! reachable from it, one layer at a time.
//!
//! A piece that stands on the board away from its number is *loose*. Pieces only ever
//! leave that set (captured, walked home, or piece 12 walked off) and the set of fixed
//! pieces only grows (a placement fixes the piece it places), so the pair (loose set,
//! fixed set) — a *layer* — never comes back once left. Inside a layer the only moves
//! are walks to an empty point and passes; every other move goes to a later layer.
//! Layers are ordered by (fewer loose pieces, then more fixed pieces): a layer's moves
//! out of it lead to strictly later classes, so the layers of one class are independent
//! and are handled in parallel.
//!
//! The analysis enumerates the reachable states forward layer by layer (breadth first
//! inside a layer, into that layer's [`StateTable`]), then solves the layers backward,
//! latest first, storing each state's value in its layer's table: every move costs one
//! probe, prefetched ahead, and a state's slot in its table is its index in the layer.
//! States are taken [`State::canonical`]: those that differ only in what no rule reads
//! any more are one. In each layer it computes, as the solver's documentation explains
//! ([`super::solver`]), the states from which each side can force a win (a
//! state of the prover is won when one move reaches a won state, a state of the
//! defender when every move does; processed in order of distance, so the distances are
//! exact), and among the other states those from which a both-win ending can be reached
//! through states neither side wins. Whatever is in neither is both-lose. Play that
//! goes round for ever (only possible inside a layer) is, correctly, never counted as
//! anyone's win.
//!
//! The states played before the position are dead ends (the repetition rule: both
//! lose), so the analysis of a position in the middle of a game is exact too.

use bitboards::chaosclock::{Move, Outcome, Side, State};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::state_table::StateTable;

/// Not won / not reachable.
const NEVER: u16 = u16::MAX;

/// Why an analysis was not done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooBig {
    /// More states are reachable than the limit allows.
    States(usize),
}

/// The layer of a state: bit n − 1 of the low 12 bits for each loose piece n, of the
/// next 12 bits for each fixed piece.
fn layer_key(s: &State) -> u32 {
    let (loose, fixed) = s.loose_and_fixed();
    loose as u32 | (fixed as u32) << 12
}

/// The class of a layer: moves out of a layer only reach higher classes.
fn class_of(key: u32) -> usize {
    let loose = (key & 0xFFF).count_ones() as usize;
    let fixed = (key >> 12).count_ones() as usize;
    (12 - loose) * 13 + fixed
}

const CLASSES: usize = 13 * 13;

/// What a state's analysis found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Value {
    /// Plies within which 甲 / 乙 forces a win (`NEVER`: it cannot).
    win_in: [u16; 2],
    /// Plies to the nearest both-win ending through states neither side wins.
    both_win_in: u16,
}

impl Value {
    fn pack(&self) -> u64 {
        self.win_in[0] as u64 | (self.win_in[1] as u64) << 16 | (self.both_win_in as u64) << 32
    }

    fn unpack(word: u64) -> Value {
        Value { win_in: [word as u16, (word >> 16) as u16], both_win_in: (word >> 32) as u16 }
    }

    fn neither_wins(&self) -> bool {
        self.win_in == [NEVER, NEVER]
    }

    fn outcome(&self) -> Outcome {
        if self.win_in[0] != NEVER {
            Outcome::Win(Side::JIA)
        } else if self.win_in[1] != NEVER {
            Outcome::Win(Side::YI)
        } else if self.both_win_in != NEVER {
            Outcome::BothWin
        } else {
            Outcome::BothLose
        }
    }
}

/// Where a move leads, seen from the analysis.
#[derive(Clone, Copy, Debug)]
enum Next {
    /// The game ends.
    End(Outcome),
    /// A state already solved.
    State(Value),
}

/// The reachable states of one layer and, once the layer is solved, their values
/// (packed by [`Value::pack`]). A state's slot in the table is its index in the layer.
struct Layer {
    key: u32,
    table: StateTable,
}

/// The layers found by the forward enumeration, each class's layer ids, and the layer
/// id of each layer key: every state's value is found through them.
#[derive(Default)]
struct Layers {
    list: Vec<Layer>,
    index: FxHashMap<u32, u32>,
    classes: Vec<Vec<u32>>,
}

impl Layers {
    /// The layer id of `key`, created (empty) if new.
    fn id(&mut self, key: u32) -> usize {
        let next = self.list.len() as u32;
        let id = *self.index.entry(key).or_insert(next);
        if id == next {
            self.list.push(Layer { key, table: StateTable::with_capacity(0) });
            self.classes[class_of(key)].push(id);
        }
        id as usize
    }

    /// Forward enumeration from `root` (canonical), class by class (the layers of a
    /// class in parallel), unless more than `max_states` states are reachable.
    fn enumerate(root: State, blocked: &FxHashSet<u64>, max_states: usize) -> Result<Layers, TooBig> {
        let mut layers = Layers { classes: vec![Vec::new(); CLASSES], ..Layers::default() };
        layers.id(layer_key(&root));
        // States entering each layer from earlier ones (repeats allowed).
        let mut entries: Vec<Vec<u64>> = vec![vec![root.key()]];
        let mut total = 0;
        for c in 0..CLASSES {
            let work: Vec<(usize, Vec<u64>)> =
                layers.classes[c].iter().map(|&id| (id as usize, std::mem::take(&mut entries[id as usize]))).collect();
            let closed: Vec<(usize, StateTable, Grouped)> = work
                .into_par_iter()
                .map(|(id, seeds)| {
                    let (table, exits) = close_layer(seeds, blocked);
                    (id, table, exits)
                })
                .collect();
            for (id, table, exits) in closed {
                total += table.len();
                layers.list[id].table = table;
                for (key, group) in exits.groups() {
                    let target = layers.id(key);
                    if entries.len() <= target {
                        entries.resize_with(target + 1, Vec::new);
                    }
                    entries[target].extend_from_slice(group);
                }
            }
            if total > max_states {
                return Err(TooBig::States(total));
            }
        }
        Ok(layers)
    }
}

/// The analysis of every state reachable from a root.
pub struct Analysis {
    root: State,
    /// Every state, with its value.
    layers: Layers,
    blocked: FxHashSet<u64>,
    total: usize,
}

fn side_index(s: Side) -> usize {
    match s {
        Side::JIA => 0,
        Side::YI => 1,
    }
}

impl Analysis {
    /// Analyses every state reachable from `root` after `history` (whose states end the
    /// game as repetitions), unless more than `max_states` are reachable.
    pub fn new(root: State, history: &[State], max_states: usize) -> Result<Analysis, TooBig> {
        let blocked: FxHashSet<u64> = history.iter().map(State::key).collect();
        if root.outcome().is_some() {
            return Ok(Analysis { root, layers: Layers::default(), blocked, total: 0 });
        }
        let mut layers = Layers::enumerate(root.canonical(), &blocked, max_states)?;
        let total = layers.list.iter().map(|l| l.table.len()).sum();
        for class in (0..CLASSES).rev() {
            let solved: Vec<(usize, Vec<u64>)> = layers.classes[class]
                .par_iter()
                .map(|&id| (id as usize, solve_layer(&layers, id as usize, &blocked)))
                .collect();
            for (id, values) in solved {
                let table = &mut layers.list[id].table;
                for (slot, value) in values.into_iter().enumerate() {
                    table.set(slot, value);
                }
            }
        }
        Ok(Analysis { root, layers, blocked, total })
    }

    /// States reachable from the root (the root included; none if the game is over),
    /// counted after merging states that differ only in what cannot matter any more.
    pub fn len(&self) -> usize {
        self.total
    }

    /// True only when the root's game is already over.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The value of a state (canonical) of a solved layer.
    fn value_of(&self, s: State) -> Option<Value> {
        let &id = self.layers.index.get(&layer_key(&s))?;
        let table = &self.layers.list[id as usize].table;
        table.find(s.key()).map(|slot| Value::unpack(table.value(slot)))
    }

    fn root_value(&self) -> Option<Value> {
        self.value_of(self.root.canonical())
    }

    /// The outcome of a state reached from the root without repeating one (`None` if
    /// it is not among them). Exact for the root; for a later state, exact when the
    /// game got there without passing through any state it can reach again.
    pub fn outcome_of(&self, s: &State) -> Option<Outcome> {
        if let Some(o) = s.outcome() {
            return Some(o);
        }
        self.value_of(s.canonical()).map(|v| v.outcome())
    }

    /// The outcome of the root.
    pub fn outcome(&self) -> Outcome {
        match self.root.outcome() {
            Some(o) => o,
            None => self.root_value().expect("the root is analysed").outcome(),
        }
    }

    /// Plies to the end along the proof: for a win, the most the loser can delay it;
    /// for both-win, the shortest path; 0 for both-lose or a finished game.
    pub fn length(&self) -> u32 {
        let Some(v) = self.root_value() else { return 0 };
        match v.outcome() {
            Outcome::Win(s) => v.win_in[side_index(s)] as u32,
            Outcome::BothWin => v.both_win_in as u32,
            Outcome::BothLose | Outcome::Draw => 0,
        }
    }

    /// A move of the root's side to move that achieves the root's outcome: the
    /// quickest win, the slowest loss, the shortest way to both-win, or a move that
    /// does not hand the other side a win.
    pub fn best_move(&self) -> Option<Move> {
        let root_value = self.root_value()?;
        let me = self.root.to_move();
        let outcome = root_value.outcome();
        let mut moves = Vec::new();
        for_each_child(self.root, &self.blocked, |m, child| {
            moves.push((m, child.map_or_else(Next::End, |c| Next::State(self.value_of(c).expect("enumerated")))));
        });
        // How good each move is (smaller is better), if it achieves the outcome.
        let cost = |next: Next| -> Option<u32> {
            match outcome {
                Outcome::Win(w) => {
                    let d = match next {
                        Next::End(o) if o == Outcome::Win(w) => 0,
                        Next::State(v) if v.win_in[side_index(w)] != NEVER => v.win_in[side_index(w)] as u32,
                        _ => return None,
                    };
                    Some(if w == me { d } else { u32::MAX - d })
                }
                Outcome::BothWin => match next {
                    Next::End(Outcome::BothWin) => Some(0),
                    Next::State(v) if v.outcome() == Outcome::BothWin => Some(v.both_win_in as u32),
                    _ => None,
                },
                Outcome::BothLose | Outcome::Draw => match next {
                    Next::End(Outcome::BothLose) => Some(1),
                    Next::State(v) if v.outcome() == Outcome::BothLose => Some(0),
                    _ => None,
                },
            }
        };
        moves.into_iter().filter_map(|(m, next)| cost(next).map(|c| (c, m))).min_by_key(|&(c, _)| c).map(|(_, m)| m)
    }
}

/// The values of the states of layer `id` (packed, by slot), every later layer being
/// solved.
fn solve_layer(layers: &Layers, id: usize, blocked: &FxHashSet<u64>) -> Vec<u64> {
    let moves = LayerMoves::of(layers, id, blocked);
    let n = layers.list[id].table.slot_count();
    let predecessors = reverse(&moves.offsets, &moves.inside, n);
    let mut values = vec![Value { win_in: [NEVER, NEVER], both_win_in: NEVER }; n];
    for prover in 0..2 {
        forced_wins(prover, &moves, &predecessors, &mut values);
    }
    both_win_distances(&moves, &predecessors, &mut values);
    values.iter().map(Value::pack).collect()
}

/// The moves of a layer's states, by slot: those inside the layer as lists of slots
/// (`inside[offsets[i]..offsets[i + 1]]` for slot i), the others summed up per state.
/// An empty slot has no moves.
struct LayerMoves {
    offsets: Vec<u32>,
    inside: Vec<u32>,
    exits: Vec<Exit>,
}

impl LayerMoves {
    fn of(layers: &Layers, id: usize, blocked: &FxHashSet<u64>) -> LayerMoves {
        let layer = &layers.list[id];
        let n = layer.table.slot_count();
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u32);
        // Every move to a state: (that state, from which slot, its layer).
        let mut targets: Vec<(u64, u32, u32)> = Vec::with_capacity(layer.table.len() * 6);
        let mut inside_moves = 0u32;
        let mut exits = Vec::with_capacity(n);
        for slot in 0..n {
            let Some(k) = layer.table.key_at(slot) else {
                offsets.push(inside_moves);
                exits.push(Exit::none());
                continue;
            };
            let s = State::from_key(k);
            let mut exit = Exit::new(side_index(s.to_move()));
            for_each_child(s, blocked, |_, child| match child {
                Err(o) => exit.add(Next::End(o)),
                Ok(child) => {
                    let key = layer_key(&child);
                    let target = if key == layer.key {
                        inside_moves += 1;
                        id as u32
                    } else {
                        layers.index[&key]
                    };
                    targets.push((child.key(), slot as u32, target));
                }
            });
            offsets.push(inside_moves);
            exits.push(exit);
        }
        // Each lookup is a cache miss: the tables are asked for them a few at a time ahead.
        const AHEAD: usize = 16;
        let prefetch = |&(child, _, target): &(u64, u32, u32)| layers.list[target as usize].table.prefetch(child);
        targets.iter().take(AHEAD).for_each(prefetch);
        let mut inside = Vec::with_capacity(inside_moves as usize);
        for (j, &(child, from, target)) in targets.iter().enumerate() {
            if let Some(next) = targets.get(j + AHEAD) {
                prefetch(next);
            }
            let table = &layers.list[target as usize].table;
            let slot = table.find(child).expect("enumerated");
            if target as usize == id {
                inside.push(slot as u32);
            } else {
                exits[from as usize].add(Next::State(Value::unpack(table.value(slot))));
            }
        }
        LayerMoves { offsets, inside, exits }
    }

    fn inside_count(&self, i: usize) -> u32 {
        self.offsets[i + 1] - self.offsets[i]
    }
}

/// Sets `win_in[prover]` of every state of the layer from which `prover` forces a win,
/// in order of distance.
fn forced_wins(prover: usize, moves: &LayerMoves, predecessors: &Predecessors, values: &mut [Value]) {
    let n = values.len();
    let mut queue = BucketQueue::default();
    // For the defender's states: moves inside the layer not yet known to lose, and the
    // longest way to the loss so far.
    let mut open = vec![0u32; n];
    let mut latest = vec![0u16; n];
    for (i, e) in moves.exits.iter().enumerate() {
        if e.mover == prover {
            if e.best_win[prover] != NEVER {
                queue.push(e.best_win[prover].saturating_add(1), i as u32);
            }
        } else if e.all_won[prover] {
            open[i] = moves.inside_count(i);
            latest[i] = e.worst_win[prover].saturating_add(1);
            if open[i] == 0 {
                queue.push(latest[i], i as u32);
            }
        }
    }
    while let Some((d, w)) = queue.pop() {
        let w = w as usize;
        if values[w].win_in[prover] != NEVER {
            continue;
        }
        values[w].win_in[prover] = d;
        for &p in predecessors.of(w) {
            let p = p as usize;
            if values[p].win_in[prover] != NEVER {
                continue;
            }
            if moves.exits[p].mover == prover {
                queue.push(d.saturating_add(1), p as u32);
            } else if moves.exits[p].all_won[prover] {
                open[p] -= 1;
                latest[p] = latest[p].max(d.saturating_add(1));
                if open[p] == 0 {
                    queue.push(latest[p], p as u32);
                }
            }
        }
    }
}

/// Sets `both_win_in` of every state neither side wins from which a both-win ending
/// can be reached through such states.
fn both_win_distances(moves: &LayerMoves, predecessors: &Predecessors, values: &mut [Value]) {
    let mut queue = BucketQueue::default();
    for (i, e) in moves.exits.iter().enumerate() {
        if values[i].neither_wins() && e.best_both_win != NEVER {
            queue.push(e.best_both_win.saturating_add(1), i as u32);
        }
    }
    while let Some((d, w)) = queue.pop() {
        let w = w as usize;
        if values[w].both_win_in != NEVER {
            continue;
        }
        values[w].both_win_in = d;
        for &p in predecessors.of(w) {
            let p = p as usize;
            if values[p].both_win_in == NEVER && values[p].neither_wins() {
                queue.push(d.saturating_add(1), p as u32);
            }
        }
    }
}

/// What the moves of a state that leave its layer give.
struct Exit {
    /// 0 for 甲 to move, 1 for 乙.
    mover: usize,
    /// For each prover: the fewest plies to its win among them (`NEVER`: none wins).
    best_win: [u16; 2],
    /// For each prover: true if every one of them is its win...
    all_won: [bool; 2],
    /// ...and then the most plies to it.
    worst_win: [u16; 2],
    /// The fewest plies to a both-win ending through states neither side wins.
    best_both_win: u16,
}

impl Exit {
    fn new(mover: usize) -> Exit {
        Exit { mover, best_win: [NEVER; 2], all_won: [true; 2], worst_win: [0; 2], best_both_win: NEVER }
    }

    /// For an empty slot: nothing to win, nothing to reach.
    fn none() -> Exit {
        Exit { all_won: [false; 2], ..Exit::new(0) }
    }

    fn add(&mut self, next: Next) {
        let (win_in, both_win_in, neither) = match next {
            Next::End(Outcome::Win(s)) => {
                let mut w = [NEVER; 2];
                w[side_index(s)] = 0;
                (w, NEVER, false)
            }
            Next::End(Outcome::BothWin) => ([NEVER; 2], 0, true),
            Next::End(Outcome::BothLose | Outcome::Draw) => ([NEVER; 2], NEVER, true),
            Next::State(v) => (v.win_in, v.both_win_in, v.neither_wins()),
        };
        for (p, &d) in win_in.iter().enumerate() {
            if d == NEVER {
                self.all_won[p] = false;
            } else {
                self.best_win[p] = self.best_win[p].min(d);
                self.worst_win[p] = self.worst_win[p].max(d);
            }
        }
        if neither {
            self.best_both_win = self.best_both_win.min(both_win_in);
        }
    }
}

/// The states with a move to state i are `from[starts[i]..starts[i + 1]]` (once per
/// such move).
struct Predecessors {
    starts: Vec<u32>,
    from: Vec<u32>,
}

impl Predecessors {
    fn of(&self, i: usize) -> &[u32] {
        &self.from[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

fn reverse(offsets: &[u32], targets: &[u32], n: usize) -> Predecessors {
    let mut starts = vec![0u32; n + 1];
    for &t in targets {
        starts[t as usize + 1] += 1;
    }
    for i in 0..n {
        starts[i + 1] += starts[i];
    }
    let mut fill = starts.clone();
    let mut from = vec![0u32; targets.len()];
    for i in 0..n {
        for &t in &targets[offsets[i] as usize..offsets[i + 1] as usize] {
            from[fill[t as usize] as usize] = i as u32;
            fill[t as usize] += 1;
        }
    }
    Predecessors { starts, from }
}

/// A queue of states by distance, smallest first.
#[derive(Default)]
struct BucketQueue {
    buckets: Vec<Vec<u32>>,
    at: usize,
}

impl BucketQueue {
    fn push(&mut self, d: u16, i: u32) {
        let d = d as usize;
        if self.buckets.len() <= d {
            self.buckets.resize_with(d + 1, Vec::new);
        }
        self.buckets[d].push(i);
        self.at = self.at.min(d);
    }

    fn pop(&mut self) -> Option<(u16, u32)> {
        while self.at < self.buckets.len() {
            if let Some(i) = self.buckets[self.at].pop() {
                return Some((self.at as u16, i));
            }
            self.at += 1;
        }
        None
    }
}

/// The states of one layer reachable from `seeds` by moves inside it, and the
/// successors in later layers, grouped by layer (repeats allowed).
///
/// It goes breadth first, a whole frontier at a time, so that the set of states seen
/// is asked about many keys at once (see [`StateTable::insert_batch`]).
fn close_layer(seeds: Vec<u64>, blocked: &FxHashSet<u64>) -> (StateTable, Grouped) {
    // Most seeds are repeats (several states of earlier layers lead to each): the
    // table grows as it needs to.
    let mut seen = StateTable::with_capacity(seeds.len() / 4);
    let Some(&first) = seeds.first() else { return (seen, Grouped::of(&[])) };
    let key = layer_key(&State::from_key(first));
    // The states found last, and the moves of theirs that stay in the layer.
    let mut frontier = Vec::new();
    let mut inside = Vec::new();
    seen.insert_batch(&seeds, &mut frontier);
    drop(seeds);
    let mut later = Vec::new();
    while !frontier.is_empty() {
        for &k in &frontier {
            for_each_child(State::from_key(k), blocked, |_, child| {
                if let Ok(child) = child {
                    let child_key = layer_key(&child);
                    if child_key == key {
                        inside.push(child.key());
                    } else {
                        later.push((child_key, child.key()));
                    }
                }
            });
        }
        frontier.clear();
        seen.insert_batch(&inside, &mut frontier);
        inside.clear();
    }
    (seen, Grouped::of(&later))
}

/// Calls `f` with each move of `s` and where it leads: the end of the game, or the next
/// state made canonical. A state of the history (`blocked`, exact states) is a
/// repetition: both lose.
#[inline]
fn for_each_child(s: State, blocked: &FxHashSet<u64>, mut f: impl FnMut(Move, Result<State, Outcome>)) {
    if blocked.is_empty() {
        let (successors, count) = s.canonical_successors();
        for &(m, child) in &successors[..count] {
            f(m, child.outcome().map_or(Ok(child), Err));
        }
    } else {
        let (successors, count) = s.successors();
        for &(m, child) in &successors[..count] {
            f(
                m,
                match child.outcome() {
                    Some(o) => Err(o),
                    None if blocked.contains(&child.key()) => Err(Outcome::BothLose),
                    None => Ok(child.canonical()),
                },
            );
        }
    }
}

/// States grouped by their layer key (a counting sort: the layers a layer's moves
/// reach are few).
struct Grouped {
    keys: Vec<u32>,
    starts: Vec<u32>,
    items: Vec<u64>,
}

impl Grouped {
    fn of(list: &[(u32, u64)]) -> Grouped {
        let mut group_of: FxHashMap<u32, u32> = FxHashMap::default();
        let mut keys = Vec::new();
        let mut counts: Vec<u32> = Vec::new();
        let groups: Vec<u32> = list
            .iter()
            .map(|&(key, _)| {
                let g = *group_of.entry(key).or_insert_with(|| {
                    keys.push(key);
                    counts.push(0);
                    keys.len() as u32 - 1
                });
                counts[g as usize] += 1;
                g
            })
            .collect();
        let mut starts = Vec::with_capacity(keys.len() + 1);
        starts.push(0u32);
        for c in &counts {
            starts.push(starts.last().copied().unwrap_or(0) + c);
        }
        let mut fill = starts.clone();
        let mut items = vec![0u64; list.len()];
        for (&g, &(_, state)) in groups.iter().zip(list) {
            items[fill[g as usize] as usize] = state;
            fill[g as usize] += 1;
        }
        Grouped { keys, starts, items }
    }

    /// Each layer key with its states.
    fn groups(&self) -> impl Iterator<Item = (u32, &[u64])> {
        self.keys
            .iter()
            .enumerate()
            .map(|(g, &k)| (k, &self.items[self.starts[g] as usize..self.starts[g + 1] as usize]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_won_position_is_won() {
        // 乙 places 12 and completes; 甲 cannot complete on its one move (it needs two).
        let s = State::parse("1,2,3,4,5,6,7,8,0,10,0,0 Y 0").expect("valid");
        let a = Analysis::new(s, &[], 1 << 20).expect("small");
        assert_eq!(a.outcome(), Outcome::Win(Side::YI));
        assert_eq!(a.best_move(), Some(Move::Place(12)));
        assert_eq!(a.length(), 2);
    }

    #[test]
    fn moves_leave_a_layer_only_for_a_later_class() {
        let mut s = bitboards::chaosclock::random_opening(5);
        for step in 0..200u64 {
            let moves = s.legal_moves();
            let child = s.play(moves[(step * 7 + 3) as usize % moves.len()]).expect("legal");
            if child.outcome().is_some() {
                break;
            }
            let (a, b) = (layer_key(&s), layer_key(&child));
            assert!(a == b || class_of(b) > class_of(a), "{s} -> {child}");
            s = child;
        }
    }
}
