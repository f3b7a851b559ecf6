//! The evaluation's weights file: a header naming the pattern layout, then each
//! weight as a zig-zag varint, runs of zeros shortened. The fitting (`train.rs`) writes
//! it and the evaluation (`eval.rs`) reads it.

use super::patterns::{OFFSETS, PATTERN_WEIGHTS, PHASE_WEIGHTS, PHASES, SCALARS};

/// The header of a weights file.
const MAGIC: &[u8; 8] = b"SENTEEV1";

/// Encodes weights: header, sizes, then each value as a zig-zag varint, a run of
/// zeros as `0` followed by the run's length.
pub fn encode_weights(weights: &[i16]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&(PHASES as u32).to_le_bytes());
    out.extend_from_slice(&(PHASE_WEIGHTS as u32).to_le_bytes());
    let mut i = 0;
    while i < weights.len() {
        if weights[i] == 0 {
            let start = i;
            while i < weights.len() && weights[i] == 0 {
                i += 1;
            }
            varint(&mut out, 0);
            varint(&mut out, (i - start) as u64);
        } else {
            let x = weights[i] as i64;
            varint(&mut out, ((x << 1) ^ (x >> 63)) as u64);
            i += 1;
        }
    }
    out
}

fn varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// Decodes [`encode_weights`]' output; checks the sizes match this build's patterns.
/// A file written for the first patterns of this build's list only (a build before
/// patterns were added) loads with the later patterns' weights zero.
pub fn decode_weights(bytes: &[u8]) -> Result<Vec<i16>, String> {
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err("not a sente evaluation file".into());
    }
    let phases = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
    let per_phase = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    let patterns_in_file = OFFSETS.iter().position(|&offset| offset + SCALARS == per_phase);
    let Some(patterns_in_file) = patterns_in_file.filter(|_| phases == PHASES) else {
        return Err(format!("weights for {phases}x{per_phase}, this build needs {PHASES}x{PHASE_WEIGHTS}"));
    };
    let total = phases * per_phase;
    let mut out = Vec::with_capacity(total);
    let mut pos = 16;
    let mut next = || -> Result<u64, String> {
        let mut x = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *bytes.get(pos).ok_or("truncated weights")?;
            pos += 1;
            x |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return Ok(x);
            }
        }
        Err("bad varint".into())
    };
    while out.len() < total {
        match next()? {
            0 => {
                let run = next()? as usize;
                if out.len() + run > total {
                    return Err("zero run past the end".into());
                }
                out.resize(out.len() + run, 0);
            }
            z => {
                let x = ((z >> 1) as i64) ^ -((z & 1) as i64);
                out.push(i16::try_from(x).map_err(|_| "weight out of range".to_string())?);
            }
        }
    }
    if per_phase == PHASE_WEIGHTS {
        return Ok(out);
    }
    // Each phase: the file's patterns, zeros for the later patterns, the scalars.
    let known = OFFSETS[patterns_in_file];
    let mut padded = Vec::with_capacity(PHASES * PHASE_WEIGHTS);
    for phase in out.chunks(per_phase) {
        padded.extend_from_slice(&phase[..known]);
        padded.resize(padded.len() + PATTERN_WEIGHTS - known, 0);
        padded.extend_from_slice(&phase[known..]);
    }
    Ok(padded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip() {
        let mut w = vec![0i16; PHASES * PHASE_WEIGHTS];
        w[5] = -3;
        w[6] = 300;
        w[1000] = i16::MIN;
        let last = w.len() - 1;
        w[last] = i16::MAX;
        let bytes = encode_weights(&w);
        assert!(bytes.len() < 100);
        assert_eq!(decode_weights(&bytes).unwrap(), w);
        assert!(decode_weights(&bytes[..bytes.len() - 1]).is_err());
        assert!(decode_weights(b"garbage!garbage!").is_err());
    }

    /// A file for the first patterns only (as a build before the last patterns were
    /// added wrote it) loads with zeros for the later patterns and the same scalars.
    #[test]
    fn weights_of_fewer_patterns_load_padded() {
        let known = OFFSETS[OFFSETS.len() - 2];
        let per_phase = known + SCALARS;
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(PHASES as u32).to_le_bytes());
        bytes.extend_from_slice(&(per_phase as u32).to_le_bytes());
        // Every value 1 (zig-zag 2), the scalars 3 (zig-zag 6).
        for _ in 0..PHASES {
            bytes.extend(std::iter::repeat_n(2u8, known));
            bytes.extend(std::iter::repeat_n(6u8, SCALARS));
        }
        let w = decode_weights(&bytes).unwrap();
        assert_eq!(w.len(), PHASES * PHASE_WEIGHTS);
        for phase in w.chunks(PHASE_WEIGHTS) {
            assert!(phase[..known].iter().all(|&x| x == 1));
            assert!(phase[known..PATTERN_WEIGHTS].iter().all(|&x| x == 0));
            assert!(phase[PATTERN_WEIGHTS..].iter().all(|&x| x == 3));
        }
        // A size that is no prefix of the patterns is refused.
        let mut odd = bytes[..16].to_vec();
        odd[12..16].copy_from_slice(&((per_phase + 1) as u32).to_le_bytes());
        assert!(decode_weights(&odd).is_err());
    }
}
