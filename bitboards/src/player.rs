//! The vocabulary every game shares: who moves ([`Player`]) and how a game ended
//! ([`Outcome`]), with the words each text format writes for an outcome — one function
//! per vocabulary, here and nowhere else: the match table's [`Outcome::result_text`]
//! and UGI+'s [`Outcome::ugi_word`] and [`Outcome::ugi_full_word`] (Chaos Clock's
//! position text has its own flags, beside its other flags in `chaosclock`).
//!
//! Each game names the two players its own way — black and white in Othello and Go
//! ([`Player::BLACK`], [`Player::WHITE`]), 乙 and 甲 in Chaos Clock ([`Player::YI`],
//! [`Player::JIA`]) — but they are the same type, so searches, protocols and the arena
//! speak of every game alike.

/// The player who moves first (black in Othello and Go, 乙 in Chaos Clock) or second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Moves first.
    One,
    /// Moves second.
    Two,
}

impl Player {
    /// Black: the first player of Othello and Go.
    pub const BLACK: Player = Player::One;
    /// White: the second player of Othello and Go.
    pub const WHITE: Player = Player::Two;
    /// 乙: the first player of Chaos Clock (owns the even pieces).
    pub const YI: Player = Player::One;
    /// 甲: the second player of Chaos Clock (owns the odd pieces).
    pub const JIA: Player = Player::Two;

    /// The other player.
    pub const fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 0 for player one, 1 for player two (for arrays indexed by player).
    pub const fn index(self) -> usize {
        match self {
            Player::One => 0,
            Player::Two => 1,
        }
    }

    /// Player one for 0, player two for anything else.
    pub const fn from_index(index: usize) -> Player {
        if index == 0 { Player::One } else { Player::Two }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One player won, the other lost.
    Win(Player),
    /// Nobody won (Othello and Go with an integral komi).
    Draw,
    /// Both players won (Chaos Clock).
    BothWin,
    /// Both players lost (Chaos Clock).
    BothLose,
}

impl Outcome {
    /// The outcome of a final margin from player one's side (positive: player one wins).
    pub fn of_margin(margin: f64) -> Outcome {
        if margin > 0.0 {
            Outcome::Win(Player::One)
        } else if margin < 0.0 {
            Outcome::Win(Player::Two)
        } else {
            Outcome::Draw
        }
    }

    /// The loss of `player`: the other one wins.
    pub const fn loss_of(player: Player) -> Outcome {
        Outcome::Win(player.other())
    }

    /// `player`'s score for match statistics: 1 for a win, 0 for a loss, ½ otherwise.
    pub fn points_for(self, player: Player) -> f64 {
        match self {
            Outcome::Win(winner) if winner == player => 1.0,
            Outcome::Win(_) => 0.0,
            _ => 0.5,
        }
    }

    /// The outcome in a match table (the arena's results and records): `1-0`, `0-1`,
    /// `1/2-1/2`, `both-win`, `both-lose`.
    pub const fn result_text(self) -> &'static str {
        match self {
            Outcome::Win(Player::One) => "1-0",
            Outcome::Win(Player::Two) => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::BothWin => "both-win",
            Outcome::BothLose => "both-lose",
        }
    }

    /// Every outcome, in the order of [`Outcome::result_text`]'s table.
    pub const ALL: [Outcome; 5] =
        [Outcome::Win(Player::One), Outcome::Win(Player::Two), Outcome::Draw, Outcome::BothWin, Outcome::BothLose];

    /// The outcome whose [`Outcome::result_text`] is `text`, if any.
    pub fn from_result_text(text: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.result_text() == text)
    }

    /// The UGI+ `query result` word of ugi.md for an outcome (`None`: the game is not
    /// over): `p1win`, `p2win`, `draw` or `none`. Chaos Clock's both-win and both-lose
    /// score both sides alike, so they are `draw` to a client that knows no more
    /// ([`Outcome::ugi_full_word`] keeps them apart).
    pub const fn ugi_word(outcome: Option<Outcome>) -> &'static str {
        match outcome {
            Some(Outcome::BothWin | Outcome::BothLose) => "draw",
            outcome => Outcome::ugi_full_word(outcome),
        }
    }

    /// The UGI+ `query result` word for an outcome with `ResultWords full`: those of
    /// [`Outcome::ugi_word`], Chaos Clock's `bothwin` and `bothlose` included.
    pub const fn ugi_full_word(outcome: Option<Outcome>) -> &'static str {
        match outcome {
            None => "none",
            Some(Outcome::Win(Player::One)) => "p1win",
            Some(Outcome::Win(Player::Two)) => "p2win",
            Some(Outcome::Draw) => "draw",
            Some(Outcome::BothWin) => "bothwin",
            Some(Outcome::BothLose) => "bothlose",
        }
    }

    /// How `player` ranks this outcome: win 3, both-win 2, draw or both-lose 1, loss 0
    /// (Chaos Clock's order of preference; a draw ranks as both-lose, neither can occur
    /// in the same game).
    pub const fn rank_for(self, player: Player) -> u8 {
        match self {
            Outcome::Win(winner) if winner as u8 == player as u8 => 3,
            Outcome::BothWin => 2,
            Outcome::Draw | Outcome::BothLose => 1,
            Outcome::Win(_) => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_the_players() {
        assert_eq!(Player::BLACK, Player::YI);
        assert_eq!(Player::WHITE, Player::JIA);
        assert_eq!(Player::One.other(), Player::Two);
        assert_eq!(Player::from_index(Player::Two.index()), Player::Two);
    }

    #[test]
    fn outcomes_rank_and_score() {
        assert_eq!(Outcome::of_margin(0.5), Outcome::Win(Player::One));
        assert_eq!(Outcome::of_margin(-3.0), Outcome::Win(Player::Two));
        assert_eq!(Outcome::of_margin(0.0), Outcome::Draw);
        assert_eq!(Outcome::loss_of(Player::One), Outcome::Win(Player::Two));
        assert_eq!(Outcome::Win(Player::Two).points_for(Player::Two), 1.0);
        assert_eq!(Outcome::BothWin.points_for(Player::One), 0.5);
        let order = [Outcome::Win(Player::One), Outcome::BothWin, Outcome::BothLose, Outcome::Win(Player::Two)];
        let ranks: Vec<u8> = order.iter().map(|o| o.rank_for(Player::One)).collect();
        assert_eq!(ranks, [3, 2, 1, 0]);
    }

    #[test]
    fn outcome_words() {
        let all =
            [Outcome::Win(Player::One), Outcome::Win(Player::Two), Outcome::Draw, Outcome::BothWin, Outcome::BothLose];
        assert_eq!(all, Outcome::ALL);
        let table: Vec<&str> = all.iter().map(|o| o.result_text()).collect();
        assert_eq!(table, ["1-0", "0-1", "1/2-1/2", "both-win", "both-lose"]);
        assert!(all.iter().all(|&o| Outcome::from_result_text(o.result_text()) == Some(o)));
        assert_eq!(Outcome::from_result_text("1/2"), None);
        let ugi: Vec<&str> = all.iter().map(|&o| Outcome::ugi_word(Some(o))).collect();
        assert_eq!(ugi, ["p1win", "p2win", "draw", "draw", "draw"]);
        let full: Vec<&str> = all.iter().map(|&o| Outcome::ugi_full_word(Some(o))).collect();
        assert_eq!(full, ["p1win", "p2win", "draw", "bothwin", "bothlose"]);
        assert_eq!((Outcome::ugi_word(None), Outcome::ugi_full_word(None)), ("none", "none"));
    }
}
