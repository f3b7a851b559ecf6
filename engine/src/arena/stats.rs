//! Match statistics: score, Elo difference with a 95% interval, likelihood of
//! superiority, pentanomial counts over game pairs, and the sequential probability
//! ratio test that stops a match once it is decided.
//!
//! Formulas (as in cutechess-cli's `elo.cpp`, fastchess and fishtest):
//!
//! * logistic Elo of a mean score `s`: `E(s) = -400 log10(1/s - 1)`;
//! * its 95% interval: `E(s ± 1.959964 σ/√n)`, with `σ²` the variance of one
//!   observation (a game scored 0, ½, 1, or a pair scored 0, ¼, … 1) about `s`;
//! * LOS (likelihood of superiority, draws ignored): `½ (1 + erf((W − L)/√(2(W + L))))`;
//! * normalized Elo: `(s − ½)/σ · 800/ln 10`, with `σ` per game, or `√2 σ` per pair;
//! * SPRT, the generalized SPRT of M. Van den Bergh ("A practical introduction to the
//!   GSPRT", fishtest): `LLR ≈ n (s₁ − s₀)(2 s − s₀ − s₁) / (2 σ²)`, where `s₀`, `s₁`
//!   are the expected scores under the two hypotheses; the test accepts H1 when LLR ≥
//!   `ln((1 − β)/α)` and H0 when LLR ≤ `ln(β/(1 − α))` (Wald's bounds).

use std::f64::consts::LN_10;
use std::fmt;

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of the first engine of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds a game scored 1, ½ or 0.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The observations (score, count) of this tally.
    fn distribution(&self) -> [(f64, f64); 3] {
        [(1.0, self.wins as f64), (0.5, self.draws as f64), (0.0, self.losses as f64)]
    }
}

/// Game pairs (the same opening with colours swapped) by the first engine's pair
/// score: 0, ½, 1, 1½, 2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds a pair whose two games scored `a` and `b`.
    pub fn add(&mut self, a: f64, b: f64) {
        let k = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[k] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The observations (pair score / 2, count).
    fn distribution(&self) -> [(f64, f64); 5] {
        std::array::from_fn(|k| (k as f64 / 4.0, self.0[k] as f64))
    }
}

/// Mean and variance of one observation, and the number of observations.
fn moments(distribution: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = distribution.iter().map(|&(_, c)| c).sum();
    if n == 0.0 {
        return None;
    }
    let mean = distribution.iter().map(|&(x, c)| x * c).sum::<f64>() / n;
    let var = distribution.iter().map(|&(x, c)| c * (x - mean) * (x - mean)).sum::<f64>() / n;
    Some((mean, var, n))
}

/// What an outcome never seen counts for in [`exact_llr`], in observations (Fishtest's
/// regularisation).
const UNSEEN_OUTCOME: f64 = 1e-3;

/// The generalized log-likelihood ratio of the observations `distribution` (outcome,
/// count) between mean scores `s0` and `s1`, exactly as Fishtest computes it: under
/// each mean, the most likely distribution over the outcomes (`p_i = f_i / (1 + λ (x_i -
/// s))`, λ found by bisection so that the mean is `s`), with every outcome never seen
/// counted as [`UNSEEN_OUTCOME`] of an observation. The normal approximation
/// `n (s1 - s0) (2 mean - s0 - s1) / (2 var)` agrees on many games, but on a few pairs
/// that happen to agree its variance is near zero: two pairs scoring 1½ and 2 gave
/// LLR 3.10 and accepted elo1 = 50 after 5 games; this gives 0.3.
fn exact_llr(distribution: &[(f64, f64)], s0: f64, s1: f64) -> f64 {
    let n: f64 = distribution.iter().map(|&(_, c)| c).sum();
    if n == 0.0 {
        return 0.0;
    }
    let weights: Vec<(f64, f64)> = distribution.iter().map(|&(x, c)| (x, c.max(UNSEEN_OUTCOME))).collect();
    let total: f64 = weights.iter().map(|&(_, w)| w).sum();
    // The multiplier of the most likely distribution with mean `s`: the mean gap
    // Σ f_i (x_i - s) / (1 + λ (x_i - s)) falls as λ grows, between the λ that make a
    // weight infinite.
    let lambda = |s: f64| -> f64 {
        let gap = |l: f64| weights.iter().map(|&(x, w)| w / total * (x - s) / (1.0 + l * (x - s))).sum::<f64>();
        let hi = weights.iter().filter(|&&(x, _)| x < s).map(|&(x, _)| 1.0 / (s - x)).fold(f64::INFINITY, f64::min);
        let lo =
            weights.iter().filter(|&&(x, _)| x > s).map(|&(x, _)| -1.0 / (x - s)).fold(f64::NEG_INFINITY, f64::max);
        let (mut lo, mut hi) = (lo * (1.0 - 1e-12), hi * (1.0 - 1e-12));
        if !lo.is_finite() || !hi.is_finite() {
            return 0.0;
        }
        for _ in 0..200 {
            let mid = (lo + hi) / 2.0;
            if gap(mid) > 0.0 { lo = mid } else { hi = mid }
        }
        (lo + hi) / 2.0
    };
    let (l0, l1) = (lambda(s0), lambda(s1));
    // log(p1_i / p0_i) = log((1 + λ0 (x_i - s0)) / (1 + λ1 (x_i - s1))), summed over
    // what was seen.
    distribution
        .iter()
        .filter(|&&(_, c)| c > 0.0)
        .map(|&(x, c)| c * ((1.0 + l0 * (x - s0)) / (1.0 + l1 * (x - s1))).ln())
        .sum()
}

/// The logistic Elo difference that gives the mean score `s` (infinite at 0 and 1).
pub fn elo_of_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score at a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
}

impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let half = (self.upper - self.lower) / 2.0;
        write!(f, "{:+.1} ± {:.1} [{:+.1}, {:+.1}]", self.elo, half, self.lower, self.upper)
    }
}

fn elo_interval(distribution: &[(f64, f64)]) -> Option<Elo> {
    let (mean, var, n) = moments(distribution)?;
    let half = Z95 * (var / n).sqrt();
    // A score of 0 or 1 has an infinite Elo: so be it (shown as inf).
    let clamp = |s: f64| s.clamp(0.0, 1.0);
    Some(Elo {
        elo: elo_of_score(clamp(mean)),
        lower: elo_of_score(clamp(mean - half)),
        upper: elo_of_score(clamp(mean + half)),
    })
}

/// The Elo difference from game results.
pub fn elo(t: &Tally) -> Option<Elo> {
    elo_interval(&t.distribution())
}

/// The Elo difference from game pairs (the interval accounts for the correlation
/// of the two games of an opening).
pub fn elo_pairs(p: &Pentanomial) -> Option<Elo> {
    elo_interval(&p.distribution())
}

/// The error function, from the Chebyshev fit of `erfc` in Numerical Recipes
/// (§6.2, fractional error below 1.2e-7 everywhere).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// Likelihood of superiority of the first engine, in [0, 1] (½ with no decisive game).
pub fn los(t: &Tally) -> f64 {
    let (w, l) = (t.wins as f64, t.losses as f64);
    if w + l == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// How Elo bounds of an SPRT are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo (BayesElo-free, as cutechess-cli).
    Logistic,
    /// Normalized Elo (fishtest, fastchess): Elo per unit of the score's spread.
    Normalized,
}

/// The largest Elo difference an SPRT bound may be (either sign).
const MAX_SPRT_ELO: f64 = 1000.0;

/// A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// Logistic or normalized Elo.
    pub model: EloModel,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// H1 accepted: the first engine is stronger by elo1.
    H1,
    /// H0 accepted.
    H0,
    /// Not yet decided.
    Continue,
}

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order, commas or spaces).
    pub fn parse(text: &str, model: EloModel) -> Result<Sprt, String> {
        let mut s = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05, model };
        for field in text.split([' ', ',']).filter(|f| !f.is_empty()) {
            let (k, text) = field.split_once('=').ok_or_else(|| format!("SPRT '{field}': expected key=value"))?;
            let v: f64 = text.parse().map_err(|_| format!("SPRT {k}: '{text}' is not a number"))?;
            // Beyond a few thousand Elo the expected score is 0 or 1 in floating point
            // and the log-likelihood ratio is not a number: no real test is near that.
            let elo = || {
                if v.abs() <= MAX_SPRT_ELO {
                    Ok(v)
                } else {
                    Err(format!("SPRT {k}: '{text}' is not an Elo difference from -{MAX_SPRT_ELO} to {MAX_SPRT_ELO}"))
                }
            };
            let probability = || {
                if v > 0.0 && v < 1.0 {
                    Ok(v)
                } else {
                    Err(format!("SPRT {k}: '{text}' is not an error rate strictly between 0 and 1"))
                }
            };
            match k {
                "elo0" => s.elo0 = elo()?,
                "elo1" => s.elo1 = elo()?,
                "alpha" => s.alpha = probability()?,
                "beta" => s.beta = probability()?,
                _ => return Err(format!("SPRT: unknown parameter '{k}' (elo0, elo1, alpha, beta)")),
            }
        }
        // Wald's bounds are ln(beta/(1-alpha)) < 0 < ln((1-beta)/alpha) only so.
        if s.alpha + s.beta >= 1.0 {
            return Err(format!("SPRT: alpha + beta must be below 1 (alpha={} beta={})", s.alpha, s.beta));
        }
        if s.elo0 >= s.elo1 {
            return Err(format!("SPRT: elo0 must be below elo1 (elo0={} elo1={})", s.elo0, s.elo1));
        }
        Ok(s)
    }

    /// Wald's bounds (lower, upper) on the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of observations (score, count); `per_pair` says the
    /// observations are half pair scores (for normalized Elo).
    fn llr_of(&self, distribution: &[(f64, f64)], per_pair: bool) -> f64 {
        let Some((mean, var, n)) = moments(distribution) else { return 0.0 };
        if var <= 0.0 {
            return self.llr_without_spread(mean, n);
        }
        let (s0, s1) = match self.model {
            EloModel::Logistic => return exact_llr(distribution, score_of_elo(self.elo0), score_of_elo(self.elo1)),
            EloModel::Normalized => {
                let sigma = var.sqrt() * if per_pair { std::f64::consts::SQRT_2 } else { 1.0 };
                let per_elo = sigma * LN_10 / 800.0;
                (0.5 + self.elo0 * per_elo, 0.5 + self.elo1 * per_elo)
            }
        };
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The LLR when all `n` observations are the same value `m` (all wins, all
    /// losses, all drawn pairs...): the normal approximation has no spread to work
    /// with, so the exact ratio is used, as the constrained maximum likelihood of the
    /// non-degenerate case gives it: under mean score `s` the most an outcome `m` can
    /// weigh is `min(1, s/m, (1-s)/(1-m))`. A straight run of wins then accepts H1
    /// after 12 games or 12 pairs for elo0=0 elo1=100, where a zero would play on
    /// forever. The normalized model has no Elo scale without a spread: it stays at 0.
    fn llr_without_spread(&self, m: f64, n: f64) -> f64 {
        if self.model == EloModel::Normalized {
            return 0.0;
        }
        let weight = |s: f64| {
            let above = if m > 0.0 { s / m } else { f64::INFINITY };
            let below = if m < 1.0 { (1.0 - s) / (1.0 - m) } else { f64::INFINITY };
            above.min(below).min(1.0)
        };
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (weight(s1) / weight(s0)).ln()
    }

    /// The LLR of game results.
    pub fn llr(&self, t: &Tally) -> f64 {
        self.llr_of(&t.distribution(), false)
    }

    /// The LLR of game pairs.
    pub fn llr_pairs(&self, p: &Pentanomial) -> f64 {
        self.llr_of(&p.distribution(), true)
    }

    /// The verdict for an LLR.
    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    //! Reference values computed here another way: Elo by bisection on the logistic
    //! curve, LOS by integrating the normal density, the SPRT against the exact
    //! generalized likelihood ratio of the multinomial (the maximum-likelihood
    //! distributions with the two hypothesised means, found by a Lagrange multiplier).
    use super::*;

    fn bisect(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
        for _ in 0..200 {
            let mid = (lo + hi) / 2.0;
            if f(lo).signum() == f(mid).signum() { lo = mid } else { hi = mid }
        }
        (lo + hi) / 2.0
    }

    #[test]
    fn elo_and_its_interval_by_bisection() {
        let t = Tally { wins: 130, draws: 40, losses: 90 };
        let e = elo(&t).expect("games");
        let s = (130.0 + 20.0) / 260.0;
        let by_bisection = bisect(|x| 1.0 / (1.0 + 10f64.powf(-x / 400.0)) - s, -1000.0, 1000.0);
        assert!((e.elo - by_bisection).abs() < 1e-6, "{e:?} vs {by_bisection}");
        assert!((e.elo - 53.88).abs() < 0.01, "{e:?}");
        // Standard error of the mean by direct sums.
        let games = [1.0; 130].iter().chain(&[0.5; 40]).chain(&[0.0; 90]).copied().collect::<Vec<f64>>();
        let var = games.iter().map(|x| (x - s).powi(2)).sum::<f64>() / 260.0;
        let se = (var / 260.0).sqrt();
        let lo = bisect(|x| 1.0 / (1.0 + 10f64.powf(-x / 400.0)) - (s - 1.96 * se), -1000.0, 1000.0);
        assert!((e.lower - lo).abs() < 0.05, "{e:?} vs {lo}");
        assert!(e.lower < e.elo && e.elo < e.upper);
        // All draws: no spread. Even score: zero.
        let even = elo(&Tally { wins: 10, draws: 5, losses: 10 }).expect("games");
        assert!(even.elo.abs() < 1e-9 && (even.upper + even.lower).abs() < 1e-9);
    }

    #[test]
    fn los_by_integrating_the_normal_density() {
        for (w, l) in [(130u64, 90u64), (10, 12), (5, 0), (50, 50)] {
            let t = Tally { wins: w, draws: 7, losses: l };
            // P(N(0,1) < (w-l)/sqrt(w+l)) by Simpson's rule from -12.
            let x = (w as f64 - l as f64) / ((w + l) as f64).sqrt();
            let steps = 20_000;
            let h = (x + 12.0) / steps as f64;
            let pdf = |u: f64| (-u * u / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
            let mut sum = pdf(-12.0) + pdf(x);
            for i in 1..steps {
                sum += pdf(-12.0 + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
            }
            let reference = sum * h / 3.0;
            assert!((los(&t) - reference).abs() < 1e-6, "{w}-{l}: {} vs {reference}", los(&t));
        }
        assert!((los(&Tally { wins: 130, draws: 40, losses: 90 }) - 0.99658).abs() < 1e-4);
    }

    /// The exact GLR: sum over outcomes of n_i ln(p1_i / p0_i), where p_j is the
    /// distribution closest (in likelihood) to the observed one with mean s_j.
    fn exact_llr(dist: &[(f64, f64)], s0: f64, s1: f64) -> f64 {
        let n: f64 = dist.iter().map(|d| d.1).sum();
        let fit = |s: f64| -> Vec<f64> {
            // p_i = f_i / (1 + λ (x_i - s)), λ chosen so that the mean is s:
            // Σ f_i (x_i - s) / (1 + λ (x_i - s)) = 0 (decreasing in λ).
            let f: Vec<f64> = dist.iter().map(|d| d.1 / n).collect();
            let mean_gap = |lambda: f64| -> f64 {
                dist.iter().zip(&f).map(|(d, fi)| fi * (d.0 - s) / (1.0 + lambda * (d.0 - s))).sum::<f64>()
            };
            let xs: Vec<f64> = dist.iter().filter(|d| d.1 > 0.0).map(|d| d.0 - s).collect();
            let hi = xs.iter().filter(|&&x| x < 0.0).map(|x| -1.0 / x).fold(f64::INFINITY, f64::min);
            let lo = xs.iter().filter(|&&x| x > 0.0).map(|x| -1.0 / x).fold(f64::NEG_INFINITY, f64::max);
            let lambda = bisect(mean_gap, lo + 1e-12, hi - 1e-12);
            dist.iter().zip(&f).map(|(d, fi)| fi / (1.0 + lambda * (d.0 - s))).collect()
        };
        let (p0, p1) = (fit(s0), fit(s1));
        dist.iter().enumerate().filter(|(_, d)| d.1 > 0.0).map(|(i, d)| d.1 * (p1[i] / p0[i]).ln()).sum()
    }

    #[test]
    fn a_few_pairs_that_happen_to_agree_do_not_decide() {
        // Two pairs scoring 1½ and 2 (a self-play match of issue 75): the normal
        // approximation's variance is near zero there and its LLR was 3.10, past the
        // bound 2.94; the likelihood ratio itself is small.
        let sprt = Sprt::parse("elo0=0 elo1=50", EloModel::Logistic).expect("valid");
        let two = Pentanomial([0, 0, 0, 1, 1]);
        let llr = sprt.llr_pairs(&two);
        assert!(llr > 0.0 && llr < 0.5, "{llr}");
        assert_eq!(sprt.verdict(llr), SprtVerdict::Continue);
        // The same shape a hundred times over decides.
        assert_eq!(sprt.verdict(sprt.llr_pairs(&Pentanomial([0, 0, 0, 100, 100]))), SprtVerdict::H1);
    }

    #[test]
    fn sprt_llr_matches_the_exact_likelihood_ratio() {
        let sprt = Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.05", EloModel::Logistic).expect("valid");
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944_438_979).abs() < 1e-6 && (upper - 2.944_438_979).abs() < 1e-6);
        let t = Tally { wins: 1200, draws: 2000, losses: 1100 };
        let exact = exact_llr(&t.distribution(), score_of_elo(0.0), score_of_elo(5.0));
        let approx = sprt.llr(&t);
        assert!((approx - exact).abs() < 0.01 * exact.abs().max(0.1), "{approx} vs {exact}");
        let p = Pentanomial([40, 300, 700, 330, 50]);
        let exact = exact_llr(&p.distribution(), score_of_elo(0.0), score_of_elo(5.0));
        let approx = sprt.llr_pairs(&p);
        assert!((approx - exact).abs() < 0.01 * exact.abs().max(0.1), "{approx} vs {exact}");
        // Decisions: a clearly stronger engine passes, an equal one fails.
        assert_eq!(sprt.verdict(sprt.llr(&Tally { wins: 3000, draws: 2000, losses: 2500 })), SprtVerdict::H1);
        assert_eq!(sprt.verdict(sprt.llr(&Tally { wins: 3000, draws: 4000, losses: 3100 })), SprtVerdict::H0);
        assert_eq!(sprt.verdict(sprt.llr(&Tally { wins: 10, draws: 10, losses: 10 })), SprtVerdict::Continue);
    }

    /// A clean sweep has no spread; it must still end the test, with the exact
    /// likelihood ratio: 12 wins (or 12 pairs won twice: a pair is one observation)
    /// accept elo1 = 100, 11 do not yet, and a run of losses accepts H0. All draws are
    /// evidence against elo1 (a mean of 0.64 cannot give only draws).
    #[test]
    fn sprt_ends_on_a_clean_sweep() {
        let sprt = Sprt::parse("elo0=0 elo1=100", EloModel::Logistic).expect("valid");
        let s1 = score_of_elo(100.0);
        let wins = |n| Tally { wins: n, draws: 0, losses: 0 };
        assert!((sprt.llr(&wins(12)) - 12.0 * (s1 / 0.5).ln()).abs() < 1e-9);
        assert_eq!(sprt.verdict(sprt.llr(&wins(12))), SprtVerdict::H1);
        assert_eq!(sprt.verdict(sprt.llr(&wins(11))), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(sprt.llr_pairs(&Pentanomial([0, 0, 0, 0, 12]))), SprtVerdict::H1);
        assert_eq!(sprt.verdict(sprt.llr_pairs(&Pentanomial([0, 0, 0, 0, 11]))), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(sprt.llr(&Tally { wins: 0, draws: 0, losses: 12 })), SprtVerdict::H0);
        let draws = sprt.llr(&Tally { wins: 0, draws: 10, losses: 0 });
        assert!((draws - 10.0 * (2.0 * (1.0 - s1)).ln()).abs() < 1e-9, "{draws}");
        let normalized = Sprt::parse("elo0=0 elo1=5", EloModel::Normalized).expect("valid");
        assert_eq!(normalized.llr(&wins(50)), 0.0);
    }

    #[test]
    fn normalized_sprt_uses_the_spread() {
        let sprt = Sprt::parse("elo0=0,elo1=2", EloModel::Normalized).expect("valid");
        let t = Tally { wins: 1200, draws: 2000, losses: 1100 };
        let (mean, var, _) = moments(&t.distribution()).expect("games");
        let per_elo = var.sqrt() * LN_10 / 800.0;
        let exact = exact_llr(&t.distribution(), 0.5, 0.5 + 2.0 * per_elo);
        assert!((sprt.llr(&t) - exact).abs() < 0.01 * exact.abs().max(0.1), "{} vs {exact}", sprt.llr(&t));
        assert!(mean > 0.5);
        assert!(Sprt::parse("elo0=5 elo1=0", EloModel::Logistic).is_err());
        assert!(Sprt::parse("alpha=2", EloModel::Logistic).is_err());
        assert!(Sprt::parse("gamma=1", EloModel::Logistic).is_err());
    }

    // --- issue 43: SPRT parameters that make no test -------------------------------

    #[test]
    fn sprt_parameters_without_a_finite_llr_are_refused() {
        for (text, word) in [
            ("elo0=1e308 elo1=inf", "elo0: '1e308'"),
            ("elo0=0 elo1=inf", "elo1: 'inf'"),
            ("elo0=-inf elo1=5", "elo0: '-inf'"),
            ("elo0=NaN elo1=5", "elo0: 'NaN'"),
            ("elo0=0 elo1=NaN", "elo1: 'NaN'"),
            ("elo0=0 elo1=1001", "elo1: '1001'"),
            ("alpha=NaN", "alpha: 'NaN'"),
            ("beta=inf", "beta: 'inf'"),
            ("alpha=0.6 beta=0.5", "alpha + beta"),
            ("alpha=0 beta=0.05", "alpha: '0'"),
        ] {
            for model in [EloModel::Logistic, EloModel::Normalized] {
                let e = Sprt::parse(text, model).expect_err(text);
                assert!(e.starts_with("SPRT") && e.contains(word), "{text}: {e}");
            }
        }
        // The widest allowed bounds still give finite LLRs, whatever the games.
        let tallies = [
            Tally { wins: 10, draws: 0, losses: 0 },
            Tally { wins: 0, draws: 0, losses: 10 },
            Tally { wins: 3, draws: 4, losses: 5 },
        ];
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let sprt = Sprt::parse("elo0=-1000 elo1=1000 alpha=0.49 beta=0.5", model).expect("valid");
            for t in &tallies {
                assert!(sprt.llr(t).is_finite(), "{model:?} {t:?}: {}", sprt.llr(t));
            }
            let (lower, upper) = sprt.bounds();
            assert!(lower < 0.0 && upper > 0.0);
        }
    }
}
