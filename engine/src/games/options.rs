//! A game's settings, declared once in a table of [`GameOption`]s: UGI+ announces
//! them after `ugi` and sets them with `setoption`, and GTP reads and sets each one
//! that has no GTP command of its own as `sente-<name in lower case> [value]` (and
//! lists it in `list_commands`), all from the same entry.

use protocol::gtp::Command;
use protocol::ugi::OptionKind;

use crate::error::{EngineError, Result};

/// One setting of a game whose state is `S`.
pub struct GameOption<S> {
    /// The UGI+ name (`Superko`).
    pub name: &'static str,
    /// The GTP command that reads and sets it (`sente-superko`), if GTP has none of its
    /// own for it (Go's komi is GTP's `komi`).
    pub gtp: Option<&'static str>,
    /// Its kind, default and values as `ugi` announces them.
    pub kind: fn() -> OptionKind,
    /// Its value now, as text.
    pub get: fn(&S) -> String,
    /// Sets it from text; on an error the setting is unchanged.
    pub set: fn(&mut S, &str) -> Result<()>,
}

/// The UGI+ announcements of `table`, in its order.
pub fn announce<S>(table: &[GameOption<S>]) -> Vec<(&'static str, OptionKind)> {
    table.iter().map(|o| (o.name, (o.kind)())).collect()
}

/// UGI+ `setoption name <name> [value <value>]`: `Ok(false)` if `name` (any case) is
/// not in `table`. Only a text option whose default is empty may go without a value
/// (it is then empty again).
pub fn set_by_name<S>(table: &[GameOption<S>], state: &mut S, name: &str, value: Option<&str>) -> Result<bool> {
    let Some(option) = table.iter().find(|o| o.name.eq_ignore_ascii_case(name)) else { return Ok(false) };
    let value = match value {
        Some(v) => v,
        None if matches!((option.kind)(), OptionKind::Text { default } if default.is_empty()) => "",
        None => return Err(EngineError::Refused(format!("option '{}' needs a value", option.name))),
    };
    (option.set)(state, value)?;
    Ok(true)
}

/// The GTP commands of `table`.
pub fn gtp_commands<S>(table: &[GameOption<S>]) -> impl Iterator<Item = &'static str> + '_ {
    table.iter().filter_map(|o| o.gtp)
}

/// GTP `sente-<name>` (its value) or `sente-<name> <value>` (sets it); `None` if `cmd`
/// is not one of `table`'s commands.
pub fn gtp_command<S>(table: &[GameOption<S>], state: &mut S, cmd: &Command) -> Option<Result<String>> {
    let option = table.iter().find(|o| o.gtp == Some(cmd.name.as_str()))?;
    Some(match cmd.args.as_slice() {
        [] => Ok((option.get)(state)),
        [value] => (option.set)(state, value).map(|()| String::new()),
        _ => Err(EngineError::Syntax(format!("{} takes one value or none, not {:?}", cmd.name, cmd.args))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct State {
        level: u32,
        name: String,
    }

    const TABLE: &[GameOption<State>] = &[
        GameOption {
            name: "Level",
            gtp: Some("sente-level"),
            kind: || OptionKind::Spin { default: 0, min: 0, max: 9 },
            get: |s| s.level.to_string(),
            set: |s, v| {
                s.level = v.parse().ok().filter(|&l| l <= 9).ok_or_else(|| format!("bad level '{v}': 0 to 9"))?;
                Ok(())
            },
        },
        GameOption {
            name: "Name",
            gtp: None,
            kind: || OptionKind::Text { default: String::new() },
            get: |s| s.name.clone(),
            set: |s, v| {
                s.name = v.to_string();
                Ok(())
            },
        },
    ];

    fn command(line: &str) -> Command {
        let mut words = line.split_whitespace().map(str::to_string);
        Command { id: None, name: words.next().unwrap_or_default(), args: words.collect() }
    }

    #[test]
    fn one_table_serves_ugi_and_gtp() {
        let names: Vec<&str> = announce(TABLE).iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["Level", "Name"]);
        assert_eq!(gtp_commands(TABLE).collect::<Vec<_>>(), ["sente-level"]);
        let mut s = State::default();
        assert!(set_by_name(TABLE, &mut s, "level", Some("4")).unwrap());
        assert_eq!(gtp_command(TABLE, &mut s, &command("sente-level")).unwrap().unwrap(), "4");
        assert_eq!(gtp_command(TABLE, &mut s, &command("sente-level 7")).unwrap().unwrap(), "");
        assert_eq!(s.level, 7);
        // A refused value keeps the setting; so does a wrong number of arguments.
        assert!(set_by_name(TABLE, &mut s, "Level", Some("12")).is_err());
        assert!(gtp_command(TABLE, &mut s, &command("sente-level 1 2")).unwrap().is_err());
        assert_eq!(s.level, 7);
        // Only a text option may go without a value.
        assert!(set_by_name(TABLE, &mut s, "Level", None).is_err());
        s.name = "x".into();
        assert!(set_by_name(TABLE, &mut s, "NAME", None).unwrap());
        assert_eq!(s.name, "");
        // Not ours: for the caller to try elsewhere.
        assert!(!set_by_name(TABLE, &mut s, "Depth", Some("3")).unwrap());
        assert!(gtp_command(TABLE, &mut s, &command("sente-name x")).is_none());
    }
}
