//! `leechbook board`: the campaign at a glance on a full-screen terminal (ratatui): every
//! character with what matters at the table now (shock, bleeding, open wounds with their
//! healing rate and impairment, or the system's own conditions), and the rolls that are
//! owed in time order with their EMLs. It follows the ledger as it changes (another
//! terminal, `sync serve`, a sync), moves the clock, and records the selected owed roll,
//! with dice typed in or rolled by Leechbook, showing the narration.
//!
//! [`Board`] is the view (`leechbook_views::board`, built from a [`Ledger`]) and [`draw`]
//! its one printer, so the screen can be tested on ratatui's test backend; [`run`] is the
//! live loop.

use crate::error::CommandError;
use crate::views::{self, OwedView};
use leechbook_core::fold::Ledger;
use leechbook_ledger::owed::Faces;
use leechbook_page::record::{record_owed, Answer, Dice};
use ratatui::layout::{Constraint, Direction, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, List, ListItem, ListState, Paragraph, Wrap};
use ratatui::Frame;
use std::path::Path;

pub use leechbook_views::board::{Board, Member};

/// Draws the board: the header, the party on the left, the agenda on the right (the
/// selected roll highlighted), and the last message at the bottom.
pub fn draw(f: &mut Frame<'_>, board: &Board, selected: Option<usize>, message: &str) {
    // The message box is as tall as its words need (up to four lines), so a command named in
    // it is never cut off at 80 columns.
    let inner = usize::from(f.area().width.saturating_sub(2)).max(1);
    let message_rows = message.chars().count().div_ceil(inner).clamp(1, 4) as u16;
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(1),
            Constraint::Min(5),
            Constraint::Length(message_rows + 2),
        ])
        .split(f.area());
    f.render_widget(Paragraph::new(board.header.clone()), rows[0]);
    // The party's side is as wide as its longest line (at most 45% of the width); the owed
    // rolls, whose lines are the longer ones, get the rest.
    let widest = board
        .party
        .iter()
        .flat_map(|m| {
            std::iter::once(m.title.chars().count())
                .chain(m.lines.iter().map(|l| l.chars().count() + 2))
        })
        .max()
        .unwrap_or(20) as u16
        + 2;
    // At most 45% of the width, at least 24 columns where there are (a terminal narrower
    // than 54 columns gives it less, never a panic).
    let most = rows[1].width * 45 / 100;
    let party_width = widest.min(most).max(24.min(most));
    let cols = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Length(party_width), Constraint::Min(20)])
        .split(rows[1]);
    // The party as far as it fits, from the selected roll's character when it would not fit
    // otherwise, and markers for the rest (never a character gone without a word).
    let room = usize::from(cols[0].height.saturating_sub(2));
    let mut used = 0;
    let mut party: Vec<ListItem<'_>> = Vec::new();
    let total = board.party.len();
    let owner = selected
        .and_then(|i| board.agenda.get(i))
        .and_then(|o| {
            board
                .party
                .iter()
                .position(|m| m.title.starts_with(&format!("{} (", o.character)))
        })
        .unwrap_or(0);
    let fits = |from: usize, upto: usize| {
        board.party[from..=upto]
            .iter()
            .map(|m| 1 + m.lines.len())
            .sum::<usize>()
            + usize::from(upto + 1 < total)
            <= room
    };
    // The GM's own scroll of the pane ([ and ]) wins; else it follows the selected roll.
    let first = if board.party_from > 0 && total > 0 {
        board.party_from.min(total - 1)
    } else if total == 0 || fits(0, owner) {
        0
    } else {
        owner
    };
    if first > 0 {
        party.push(ListItem::new(Line::styled(
            format!("({first} more above)"),
            Style::default().add_modifier(Modifier::ITALIC),
        )));
        used += 1;
    }
    for (i, m) in board.party.iter().enumerate().skip(first) {
        let height = 1 + m.lines.len();
        // Room for this one, and a row left for the marker while others follow.
        let marker_row = usize::from(i + 1 < total);
        if used + height + marker_row > room {
            party.push(ListItem::new(Line::styled(
                format!("+{} more characters", total - i),
                Style::default().add_modifier(Modifier::ITALIC),
            )));
            break;
        }
        used += height;
        let mut lines = vec![Line::styled(
            m.title.clone(),
            Style::default().add_modifier(Modifier::BOLD),
        )];
        lines.extend(m.lines.iter().map(|l| Line::from(format!("  {l}"))));
        party.push(ListItem::new(lines));
    }
    f.render_widget(
        List::new(party).block(Block::default().borders(Borders::ALL).title("Party")),
        cols[0],
    );
    // Each owed roll on its line, cut with an ellipsis where the column ends (the selected
    // one's whole line is in the message box when it is picked).
    let width = usize::from(cols[1].width.saturating_sub(4)).max(1);
    let agenda: Vec<ListItem<'_>> = board
        .agenda
        .iter()
        .map(|o| {
            // The whole line where it fits; else what matters first (who, what, EML, when).
            let full = format!("{}: {}", o.character, views::render_owed(o));
            let line = if full.chars().count() <= width {
                full
            } else {
                views::render_owed_short(o)
            };
            ListItem::new(if line.chars().count() > width {
                let cut: String = line.chars().take(width - 1).collect();
                format!("{cut}\u{2026}")
            } else {
                line
            })
        })
        .collect();
    let mut state = ListState::default().with_selected(selected);
    let shown = usize::from(cols[1].height.saturating_sub(2));
    let title = if board.agenda.len() > shown {
        format!(
            "Owed, now first ({} in all: up/down scrolls)",
            board.agenda.len()
        )
    } else {
        "Owed, now first".to_string()
    };
    f.render_stateful_widget(
        List::new(agenda)
            .block(Block::default().borders(Borders::ALL).title(title))
            .highlight_symbol("> ")
            .highlight_style(Style::default().add_modifier(Modifier::REVERSED)),
        cols[1],
        &mut state,
    );
    // The keys, in the message box's frame: kept whatever the width (the short form first).
    let keys = if f.area().width >= 100 {
        "[up/down] select  [r] roll  [digits r] roll a face  [.] +10m  [>] +1h  [d] +1d  [[ ]] party  [q] quit"
    } else {
        "[\u{2191}\u{2193}] pick [r] roll [0-9 r] face [. > d] +10m/1h/1d [[ ]] party [q] quit"
    };
    f.render_widget(
        Paragraph::new(message.to_string())
            .wrap(Wrap { trim: true })
            .block(Block::default().borders(Borders::ALL).title(keys)),
        rows[2],
    );
}

/// Records the selected owed roll with the faces typed (none: Leechbook rolls them), through
/// the typed path the players' page takes too, and gives the line for the message box: the
/// event's line with what it did, the refusal, or for what the GM or a healer records, the
/// command that records it.
fn record(db: &Path, o: &OwedView, typed: &str) -> String {
    if !o.roll.rollable() {
        return hint(o);
    }
    let Some(faces) = Faces::parse(typed) else {
        return format!("'{typed}' is not a face: type the number the die showed (00 is 100)");
    };
    let recorded = (|| -> Result<Answer, CommandError> {
        let mut replica = leechbook_ledger::Replica::open(db)?;
        Ok(record_owed(&mut replica, o, &faces, &mut Dice::new())?)
    })();
    match recorded {
        Ok(a) => a.said(!faces.rolled()),
        Err(e) => refused(&e),
    }
}

/// A refusal on the message line: one line, nothing recorded.
fn refused(e: &CommandError) -> String {
    format!("REFUSED, nothing recorded: {e}")
}

/// The command that records what the GM or a healer decides (a Morale roll at the GM's ML,
/// a treatment, a blood stoppage, a Wrath & Glory complication, a Quarrel).
fn hint(o: &OwedView) -> String {
    use leechbook_core::harnmaster::healing::SeqRollKind;
    use leechbook_core::owed::{HmRoll, Owed, WgRoll, WiRoll};
    let who = o.character.as_str();
    let k = o.kind();
    let injury = o.injury.as_deref().unwrap_or("INJURY");
    let line = match o.roll {
        Owed::HarnMaster(HmRoll::Gm(_)) => {
            format!("leechbook roll '{who}' {k} --ml ML (or --outcome for an automatic failure)")
        }
        Owed::HarnMaster(HmRoll::BloodStoppage) => {
            format!("leechbook staunch '{who}' {injury} --physician ML (or --cauterise)")
        }
        Owed::HarnMaster(HmRoll::Treatment) => {
            format!("leechbook treat '{who}' {injury} --physician ML")
        }
        Owed::HarnMaster(HmRoll::Seq(SeqRollKind::Aggravation)) => format!(
            "leechbook roll '{who}' aggravation {injury} (when a CF test using the zone, or a move, calls for it)"
        ),
        Owed::WitchIron(WiRoll::EndOfRound) => format!(
            "leechbook wi round '{who}' (with --hardship-hits N when the d6 calls a Hardship Quarrel)"
        ),
        Owed::WrathGlory(WgRoll::Dying) => format!(
            "leechbook wg complication '{who}' (a complication on a Wrath Die), or wg regroup / wg respite to recover a Wound"
        ),
        _ => format!("the command `leechbook due '{who}'` names"),
    };
    format!("{who}'s {k} is the GM's or a healer's to record: {line}")
}

/// Moves the clock by `by` as `advance BY` does (it stops where an owed roll falls due),
/// and gives its first line for the message box.
fn advance(db: &Path, by: &str) -> String {
    let mut ctx = crate::ctx::Ctx::for_db(db.to_path_buf());
    match crate::commands::advance::cmd_advance(
        crate::commands::advance::AdvanceArgs::by(by.to_string()),
        &mut ctx,
    ) {
        Ok(()) => ctx.out.lines().next().unwrap_or("").to_string(),
        Err(e) => refused(&e),
    }
}

/// The roll to select once the owed list changed: the same roll (who, what, which injury) if
/// it is still owed, else the place it was at.
fn follow(before: Option<&OwedView>, at: Option<usize>, now: &[OwedView]) -> Option<usize> {
    if now.is_empty() {
        return None;
    }
    let same = before.and_then(|b| {
        now.iter()
            .position(|o| o.character == b.character && o.roll == b.roll && o.injury == b.injury)
    });
    same.or(Some(at.unwrap_or(0).min(now.len() - 1)))
}

/// The live board on this terminal, until `q`; `news` (a hub's watch) is shown on its
/// message line as it comes.
pub fn run(db: &Path, news: Option<std::sync::mpsc::Receiver<String>>) -> Result<(), CommandError> {
    use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
    // One connection for the board's reads; the commands it runs write through their own.
    let replica = leechbook_ledger::Replica::open(db)?;
    let last_row = || leechbook_store::ReadLog::last_row(replica.store());
    // The board shows open wounds and what is owed: no healed injury of the archive.
    let load =
        || -> Result<(i64, Ledger), CommandError> { Ok((last_row()?, replica.state_open()?)) };
    let (mut seen, ledger) = load()?;
    // A player's board leaves out what the GM hid (GM-only characters and what they owe);
    // the role is read again with every change the board follows (a roster change too).
    let gm = || leechbook_sync::crypt::is_gm_device(replica.store());
    let mut board = Board::of(&ledger, gm()?);
    let mut selected = (!board.agenda.is_empty()).then_some(0);
    let mut message = String::from("following the ledger");
    let mut typed = String::new();
    let mut terminal = ratatui::init();
    let result = (|| -> Result<(), CommandError> {
        loop {
            terminal.draw(|f| {
                let msg = if typed.is_empty() {
                    message.clone()
                } else {
                    format!("face: {typed}")
                };
                draw(f, &board, selected, &msg)
            })?;
            if event::poll(std::time::Duration::from_millis(300))? {
                if let Event::Key(k) = event::read()? {
                    if k.kind != KeyEventKind::Press {
                        continue;
                    }
                    let advance = |by: &str| advance(db, by);
                    match k.code {
                        KeyCode::Char('q') | KeyCode::Esc => return Ok(()),
                        KeyCode::Up | KeyCode::Down => {
                            selected = selected.map(|s| match k.code {
                                KeyCode::Up => s.saturating_sub(1),
                                _ => (s + 1).min(board.agenda.len().saturating_sub(1)),
                            });
                            // The picked roll's whole line, which its row may cut.
                            if let Some(o) = selected.and_then(|s| board.agenda.get(s)) {
                                message = format!("{}: {}", o.character, views::render_owed(o));
                            }
                        }
                        // The party pane scrolls by a character.
                        KeyCode::Char('[') => {
                            board.party_from = board.party_from.saturating_sub(1);
                        }
                        KeyCode::Char(']') => {
                            board.party_from =
                                (board.party_from + 1).min(board.party.len().saturating_sub(1));
                        }
                        KeyCode::Char('.') => message = advance("10m"),
                        KeyCode::Char('>') => message = advance("1h"),
                        KeyCode::Char('d') => message = advance("1d"),
                        // Faces: digits, a space between dice, `+` chaining an ace.
                        KeyCode::Char(c) if c.is_ascii_digit() || c == ' ' || c == '+' => {
                            typed.push(c)
                        }
                        KeyCode::Backspace => {
                            typed.pop();
                        }
                        KeyCode::Char('r') | KeyCode::Enter => {
                            message = match selected.and_then(|s| board.agenda.get(s)) {
                                None => "nothing owed is selected".into(),
                                Some(o) => record(db, o, &typed),
                            };
                            typed.clear();
                        }
                        _ => {}
                    }
                }
            }
            if let Some(news) = &news {
                while let Ok(m) = news.try_recv() {
                    message = m;
                }
            }
            // Follow the ledger: another terminal, a sync, sync serve. What arrived from
            // elsewhere is said, each with whose it is.
            if last_row()? != seen {
                let me = replica.store().device();
                let arrived = crate::commands::sync::arrived(db, seen as u64, Some(me));
                if let Some(last) = arrived.last() {
                    message = if arrived.len() > 1 {
                        format!("{last} (and {} more)", arrived.len() - 1)
                    } else {
                        last.clone()
                    };
                }
                let (r, ledger) = load()?;
                seen = r;
                let before = selected.and_then(|s| board.agenda.get(s)).cloned();
                let party_from = board.party_from;
                board = Board::of(&ledger, gm()?);
                board.party_from = party_from.min(board.party.len().saturating_sub(1));
                selected = follow(before.as_ref(), selected, &board.agenda);
            }
        }
    })();
    ratatui::restore();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use leechbook_core::harnmaster::healing::SeqRollKind;
    use leechbook_core::harnmaster::shock::GmRollKind;
    use leechbook_core::owed::{HmRoll, Owed, WgRoll};

    fn owed(roll: Owed, injury: Option<&str>) -> OwedView {
        OwedView {
            roll,
            character_id: leechbook_core::ids::CharacterId(uuid::Uuid::nil()),
            injury_id: None,
            character: "Osric".into(),
            target: "Osric".into(),
            injury: injury.map(str::to_string),
            place: None,
            due_at: None,
            due: None,
            due_now: true,
            recordable_now: true,
            eml: None,
            eml_parts: vec![],
            decision: false,
            automatic: false,
            note: "",
        }
    }

    const HEALING: Owed = Owed::HarnMaster(HmRoll::Seq(SeqRollKind::Healing));
    const SHOCK: Owed = Owed::HarnMaster(HmRoll::ShockReroll);

    /// What the GM or a healer records is named with its command; a roll is not.
    #[test]
    fn each_decision_is_given_its_command() {
        assert!(hint(&owed(Owed::WrathGlory(WgRoll::Dying), None))
            .contains("leechbook wg complication 'Osric'"));
        assert_eq!(
            hint(&owed(Owed::HarnMaster(HmRoll::Treatment), Some("ab12"))),
            "Osric's treatment is the GM's or a healer's to record: leechbook treat 'Osric' ab12 --physician ML"
        );
        assert_eq!(
            hint(&owed(Owed::HarnMaster(HmRoll::Gm(GmRollKind::Morale)), Some("ab12"))),
            "Osric's morale is the GM's or a healer's to record: leechbook roll 'Osric' morale --ml ML (or --outcome for an automatic failure)"
        );
        assert!(record(
            Path::new("/nonexistent/ledger.db"),
            &owed(HEALING, None),
            "4x"
        )
        .contains("'4x' is not a face"));
    }

    /// Issue 26, item 5: when the owed list changes (a strike from another terminal), the
    /// selection stays on the same roll.
    #[test]
    fn the_selection_follows_the_same_roll() {
        let mut bertil = owed(
            Owed::HarnMaster(HmRoll::Seq(SeqRollKind::BloodLoss)),
            Some("cd34"),
        );
        bertil.character = "Bertil".into();
        let before = [owed(HEALING, Some("ab12")), owed(SHOCK, None)];
        let now = vec![bertil, owed(HEALING, Some("ab12")), owed(SHOCK, None)];
        assert_eq!(follow(before.get(1), Some(1), &now), Some(2));
        assert_eq!(follow(before.first(), Some(0), &now[..1]), Some(0));
        assert_eq!(follow(None, None, &[]), None);
    }
}
