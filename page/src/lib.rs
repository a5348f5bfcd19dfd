//! The players' page: the routes a hub answers beside its WebSocket, for phones at the
//! table. A link is `/p/SECRET/`; its page prints the typed views (`leechbook_views::html`),
//! follows the ledger live by server-sent events, and records the rolls its character owes
//! through the typed path ([`record`]: the rules and refusals of the terminal's roll
//! commands), signed by the device made for the link.
//!
//! One thread follows the ledger (its last row and its revoked links, every
//! [`FOLLOW_EVERY`]) and folds it again when either moves; every open page hears the new
//! state at once and prints its own part of it. A revoked link answers 410 and its open
//! pages are told so and closed; an unknown secret answers 404, the same page whatever the
//! secret, so a guess learns nothing.

pub mod record;

use axum::extract::{Path as UrlPath, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_ledger::owed::Faces;
use leechbook_ledger::{LedgerError, Replica};
use leechbook_store::{Link, Store};
use leechbook_views::html::{self, PageView, PartyView, Shown};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// How often the page looks for a change of the ledger: what a change recorded elsewhere
/// waits at most before it is folded (the fold itself comes on top).
pub const FOLLOW_EVERY: Duration = Duration::from_millis(100);

/// The largest form a page may post (a roll's kind, injury and face fit in a few dozen
/// bytes).
const MAX_FORM: usize = 2048;

const CSS: &str = include_str!("page.css");
const JS: &str = include_str!("page.js");

/// The ledger as the page last folded it.
#[derive(Clone)]
struct Folded {
    ledger: Arc<Ledger>,
}

/// What every route shares.
struct Page {
    db: PathBuf,
    /// The links' lookups (a connection of its own).
    links: Mutex<Store>,
    folded: watch::Receiver<Folded>,
    /// How many live pages each link has open.
    open_pages: Arc<Mutex<std::collections::HashMap<String, usize>>>,
}

/// The most live pages one link keeps open at once (a player's phone, a tablet, a reload or
/// two): each costs the hub a render per change, on the threads that carry its sync.
pub const MAX_OPEN_PAGES: usize = 8;

/// One open live page of a link, counted while it lives.
struct OpenPage {
    token: String,
    count: Arc<Mutex<std::collections::HashMap<String, usize>>>,
}

impl OpenPage {
    /// Counts one more open page of `token`, unless it has [`MAX_OPEN_PAGES`] already.
    fn open(
        count: &Arc<Mutex<std::collections::HashMap<String, usize>>>,
        token: &str,
    ) -> Option<OpenPage> {
        let mut c = count.lock().ok()?;
        let n = c.entry(token.to_string()).or_insert(0);
        if *n >= MAX_OPEN_PAGES {
            return None;
        }
        *n += 1;
        Some(OpenPage {
            token: token.to_string(),
            count: count.clone(),
        })
    }
}

impl Drop for OpenPage {
    fn drop(&mut self) {
        if let Ok(mut c) = self.count.lock() {
            if let Some(n) = c.get_mut(&self.token) {
                *n = n.saturating_sub(1);
            }
        }
    }
}

/// The page's routes for the ledger at `db`, and the thread that follows it. Fails when the
/// ledger cannot be read.
pub fn routes(db: &Path) -> Result<Router, LedgerError> {
    let replica = leechbook_ledger::Replica::open(db)?;
    let ledger = replica.state_open()?;
    let (tx, rx) = watch::channel(Folded {
        ledger: Arc::new(ledger),
    });
    std::thread::spawn(move || follow(replica, tx));
    let page = Arc::new(Page {
        db: db.to_path_buf(),
        links: Mutex::new(Store::open(db)?),
        folded: rx,
        open_pages: Arc::new(Mutex::new(std::collections::HashMap::new())),
    });
    Ok(Router::new()
        .route("/page.css", get(|| async { asset("text/css", CSS) }))
        .route("/page.js", get(|| async { asset("text/javascript", JS) }))
        .route(
            "/p/{token}",
            get(|UrlPath(t): UrlPath<String>| async move {
                guarded(Redirect::temporary(&format!("/p/{}/", clean(&t))).into_response())
            }),
        )
        .route("/p/{token}/", get(show))
        .route("/p/{token}/live", get(live))
        .route("/p/{token}/roll", post(roll))
        .route("/p/{token}/wound/{injury}", get(wound))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_FORM))
        .with_state(page))
}

/// Follows the ledger until no page listens: folds it again whenever its log gains a row
/// or a link is revoked.
fn follow(replica: leechbook_ledger::Replica, tx: watch::Sender<Folded>) {
    let seen = |r: &leechbook_ledger::Replica| -> Option<(i64, usize)> {
        let row = leechbook_store::ReadLog::last_row(r.store()).ok()?;
        let revoked = r.store().links().ok()?.iter().filter(|l| !l.live()).count();
        Some((row, revoked))
    };
    let mut last = seen(&replica);
    loop {
        std::thread::sleep(FOLLOW_EVERY);
        if tx.is_closed() {
            return;
        }
        let now = seen(&replica);
        if now.is_none() || now == last {
            continue;
        }
        // A fold that fails (the ledger busy) is tried again at the next look.
        if let Ok(ledger) = replica.state_open() {
            last = now;
            tx.send_replace(Folded {
                ledger: Arc::new(ledger),
            });
        }
    }
}

/// A secret as it may appear in a path: hex digits only, at most 64.
fn clean(t: &str) -> String {
    t.chars().filter(char::is_ascii_hexdigit).take(64).collect()
}

/// The headers every answer carries: no script or style but the hub's own files, no
/// referrer (the URL is the secret), nothing cached, not framed.
fn guarded(mut r: Response) -> Response {
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        ),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    r
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    guarded(([(header::CONTENT_TYPE, kind)], body).into_response())
}

fn html_page(status: StatusCode, body: String) -> Response {
    guarded(
        (
            status,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            body,
        )
            .into_response(),
    )
}

/// What a request's secret opens.
enum Opened {
    Live(Link),
    Revoked,
    Unknown,
}

impl Page {
    fn open(&self, token: &str) -> Opened {
        let found = self
            .links
            .lock()
            .ok()
            .and_then(|s| s.link(&clean(token)).ok().flatten());
        // A link whose device the roster revoked (`device revoke`) is revoked with it.
        let device_revoked = |l: &Link| {
            l.device.is_some_and(|(d, _)| {
                self.ledger()
                    .roster
                    .entries
                    .get(&d)
                    .is_some_and(|e| e.revoked.is_some())
            })
        };
        match found {
            Some(l) if l.live() && !device_revoked(&l) => Opened::Live(l),
            Some(_) => Opened::Revoked,
            None => Opened::Unknown,
        }
    }

    fn ledger(&self) -> Arc<Ledger> {
        self.folded.borrow().ledger.clone()
    }

    /// Whether the page offers to record `o` for the link: it has a device, and the roll
    /// is the table's alone (not the GM's or a healer's).
    fn may_record(&self, link: &Link, o: &leechbook_views::OwedView) -> bool {
        link.device.is_some() && o.roll.rollable()
    }
}

fn refused(opened: Opened) -> Response {
    match opened {
        Opened::Revoked => html_page(
            StatusCode::GONE,
            html::notice(
                "Link revoked",
                "The GM revoked this link: it shows nothing and records nothing. Ask the GM for a new one.",
            ),
        ),
        _ => html_page(
            StatusCode::NOT_FOUND,
            html::notice(
                "No such link",
                "This address opens no page. Check the link the GM gave you.",
            ),
        ),
    }
}

/// What `link` shows of `ledger`.
fn view_of(page: &Page, link: &Link, ledger: &Ledger) -> PageView {
    let campaign = ledger
        .campaign
        .as_ref()
        .map_or_else(|| "Leechbook".to_string(), |c| c.name.clone());
    let full = |c: &CharacterState, may: bool| {
        let owed = html::owed_with(ledger, c, |o| may && page.may_record(link, o));
        (Shown::of(ledger, c), owed)
    };
    let mut characters = Vec::new();
    let mut party = Vec::new();
    for c in &ledger.characters {
        // A player's page lists the party in the story: no foe, NPC or one set aside, and
        // never a GM-only character, whatever the link's `--party`.
        let standing = ledger.standing_of(c.id());
        let of_the_party = standing.side == leechbook_core::standing::Side::Party
            && standing.in_story()
            && !ledger.is_secret(c.id());
        match link.character {
            // The GM's page: a character set aside owes nothing asked for (as `due`).
            None if !standing.in_story() => characters.push((Shown::of(ledger, c), Vec::new())),
            None => characters.push(full(c, false)),
            // A GM-only character has no player's link (`device link` refuses one, and one
            // made before the character was hidden shows it no more).
            Some(id) if c.id() == id && ledger.is_secret(id) => {}
            // Set aside by the GM, the character owes nothing the page would record.
            Some(id) if c.id() == id && !standing.in_story() => {
                characters.insert(0, (Shown::of(ledger, c), Vec::new()))
            }
            Some(id) if c.id() == id => characters.insert(0, full(c, true)),
            Some(_) if !of_the_party => {}
            Some(_) => match link.party.as_str() {
                "everything" => characters.push(full(c, false)),
                "names" => party.push(PartyView {
                    name: c.name().to_string(),
                    condition: None,
                }),
                "conditions" => party.push(PartyView {
                    name: c.name().to_string(),
                    condition: Some(html::condition_word(ledger, c)),
                }),
                _ => {}
            },
        }
    }
    let gm_only = ledger
        .secret
        .iter()
        .filter_map(|id| ledger.name_of(*id))
        .filter(|_| link.character.is_none())
        .map(str::to_string)
        .collect();
    // The GM's page says where each character stands who is not of the party in the story.
    let standing = ledger
        .characters
        .iter()
        .filter(|_| link.character.is_none())
        .filter_map(|c| {
            let st = ledger.standing_of(c.id());
            let mut words = Vec::new();
            if st.side != leechbook_core::standing::Side::Party {
                words.push(st.side.word().to_string());
            }
            if let Some(why) = &st.aside {
                words.push(format!("set aside ({why}): nothing of theirs is asked for"));
            }
            (!words.is_empty()).then(|| (c.name().to_string(), words.join(", ")))
        })
        .collect();
    PageView {
        campaign,
        clock: ledger.now.to_string(),
        characters,
        party,
        gm_only,
        standing,
    }
}

async fn show(State(page): State<Arc<Page>>, UrlPath(token): UrlPath<String>) -> Response {
    match page.open(&token) {
        Opened::Live(link) => {
            let ledger = page.ledger();
            let v = view_of(&page, &link, &ledger);
            html_page(
                StatusCode::OK,
                html::page(&v, &format!("/p/{}/", link.token)),
            )
        }
        other => refused(other),
    }
}

/// The page's live updates: the part of the page to show now, at once and after every
/// change of the ledger; `revoked` (and the end) once the link is revoked.
async fn live(State(page): State<Arc<Page>>, UrlPath(token): UrlPath<String>) -> Response {
    let link = match page.open(&token) {
        Opened::Live(l) => l,
        other => return refused(other),
    };
    let Some(counted) = OpenPage::open(&page.open_pages, &link.token) else {
        return html_page(
            StatusCode::TOO_MANY_REQUESTS,
            html::notice(
                "Too many open pages",
                &format!("This link has {MAX_OPEN_PAGES} live pages open already: close one, then reload."),
            ),
        );
    };
    let mut rx = page.folded.clone();
    rx.mark_changed();
    // The count goes with the stream: dropped when the page goes away.
    let stream = futures::stream::unfold(
        (page, link, rx, false, counted),
        |(page, link, mut rx, ended, counted)| async move {
            if ended || rx.changed().await.is_err() {
                return None;
            }
            let ledger = rx.borrow_and_update().ledger.clone();
            let event = match page.open(&link.token) {
                Opened::Live(_) => SseEvent::default()
                    .event("page")
                    .data(html::main(&view_of(&page, &link, &ledger))),
                _ => {
                    let e = SseEvent::default()
                        .event("revoked")
                        .data("The GM revoked this link: it shows nothing and records nothing.");
                    return Some((
                        Ok::<_, std::convert::Infallible>(e),
                        (page, link, rx, true, counted),
                    ));
                }
            };
            Some((Ok(event), (page, link, rx, false, counted)))
        },
    );
    guarded(
        Sse::new(stream)
            .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
            .into_response(),
    )
}

/// The answer to a roll: whether it was recorded, and the one line to show.
fn said(status: StatusCode, ok: bool, line: &str) -> Response {
    toned(status, ok, line, if ok { "neutral" } else { "bad" })
}

/// [`said`], with how the roll went for the roller (`good`, `bad`, `neutral`): the colour of
/// its line.
fn toned(status: StatusCode, ok: bool, line: &str, tone: &str) -> Response {
    let body = serde_json::json!({ "ok": ok, "line": line, "tone": tone }).to_string();
    guarded((status, [(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// Records a roll the link's character owes: the form names the roll (its kind and
/// injury, as the page showed it) and the face, or asks Leechbook to roll.
async fn roll(
    State(page): State<Arc<Page>>,
    UrlPath(token): UrlPath<String>,
    body: String,
) -> Response {
    let link = match page.open(&token) {
        Opened::Live(l) => l,
        Opened::Revoked => {
            return said(
                StatusCode::GONE,
                false,
                "the GM revoked this link: nothing was recorded",
            )
        }
        Opened::Unknown => return said(StatusCode::NOT_FOUND, false, "no such link"),
    };
    let (Some(character), Some(device)) = (link.character, link.device) else {
        return said(
            StatusCode::FORBIDDEN,
            false,
            "the GM's page records nothing: record from the terminal or the board",
        );
    };
    let form: std::collections::HashMap<String, String> =
        url::form_urlencoded::parse(body.as_bytes())
            .into_owned()
            .collect();
    let field = |k: &str| {
        form.get(k)
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    };
    // One field per die the roll takes (`face`, `face2`, ...), read in order.
    let face = std::iter::once(field("face"))
        .chain((2..=6).map(|i| field(&format!("face{i}"))))
        .filter(|f| !f.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let (kind, injury) = (field("kind"), field("injury"));
    let auto = !field("auto").is_empty();
    if !auto && face.is_empty() {
        return said(
            StatusCode::BAD_REQUEST,
            false,
            "type the face the die showed, or press Roll for me",
        );
    }
    let not_faces = || {
        said(
            StatusCode::BAD_REQUEST,
            false,
            &format!("'{face}' is not a face: type the number the die showed (00 is 100)"),
        )
    };
    // Faces typed (never none: "Roll for me" is its own button).
    let faces = if auto {
        Faces::default()
    } else {
        match Faces::parse(&face).filter(|f| !f.rolled()) {
            Some(f) => f,
            None => return not_faces(),
        }
    };
    let ledger = page.ledger();
    let Some(c) = ledger.character(character) else {
        return said(
            StatusCode::CONFLICT,
            false,
            "this character is no longer in the campaign",
        );
    };
    // A character the GM set aside, or made GM-only, owes nothing this page records.
    let standing = ledger.standing_of(character);
    if !standing.in_story() || ledger.is_secret(character) {
        return said(
            StatusCode::CONFLICT,
            false,
            &format!(
                "the GM has set {} aside{}: nothing is recorded from this page until they are back",
                c.name(),
                standing
                    .aside
                    .map(|w| format!(" ({w})"))
                    .unwrap_or_default()
            ),
        );
    }
    let owed = leechbook_views::owed_any(&ledger, c);
    let injury = (!injury.is_empty()).then_some(injury);
    let Some(o) = owed
        .into_iter()
        .find(|o| o.kind() == kind && o.injury == injury)
    else {
        return said(
            StatusCode::CONFLICT,
            false,
            &format!(
                "{} owes no such roll now: nothing was recorded (the page shows what is owed now)",
                c.name()
            ),
        );
    };
    // Only a roll due now is recorded: the clock is the GM's, so the page says when.
    if !o.recordable_now {
        return said(
            StatusCode::CONFLICT,
            false,
            &format!(
                "{}'s {} is due at {}; the GM's clock is at {}: it can be recorded then (nothing was recorded)",
                o.character,
                o.kind(),
                o.due_at.as_deref().unwrap_or("a later moment"),
                ledger.now
            ),
        );
    }
    if !o.roll.rollable() {
        return said(
            StatusCode::CONFLICT,
            false,
            &format!(
                "{}'s {} is the GM's or a healer's to record: nothing was recorded",
                o.character,
                o.kind()
            ),
        );
    }
    // One number for each die that does not ace (HârnMaster's d100 and d3): a list or a
    // chain is not its face.
    let acing = matches!(o.roll, leechbook_core::owed::Owed::SavageWorlds(_));
    if !acing && faces.0.iter().any(|chain| chain.len() > 1) {
        return not_faces();
    }
    let dice = leechbook_ledger::owed::dice_for(&ledger, o.roll);
    if faces.0.len() > 1 && dice.len() == 1 {
        return not_faces();
    }
    // A face for each die the page asks for (one field each): none is rolled unseen for a
    // player who typed.
    let fields = o.roll.dice();
    if !auto && faces.0.len() < fields.len() {
        return said(
            StatusCode::BAD_REQUEST,
            false,
            &format!(
                "type a face for each die ({}), or press Roll for me: nothing was recorded",
                fields.join(", ")
            ),
        );
    }
    let db = page.db.clone();
    let out = tokio::task::spawn_blocking(move || {
        let mut store = Store::open(&db).map_err(LedgerError::from)?;
        store.act_as(device.0, device.1);
        let mut replica = Replica::from_store(store);
        record::record_owed(&mut replica, &o, &faces, &mut record::Dice::new())
    })
    .await;
    match out {
        Ok(Ok(answer)) => {
            // Revoked while it recorded: the revocation's number decides whether it stands.
            if !matches!(page.open(&token), Opened::Live(_)) {
                return said(
                    StatusCode::OK,
                    false,
                    &format!("{}; but the GM revoked this link as it was recorded: the GM's record says whether it stands", answer.line),
                );
            }
            toned(StatusCode::OK, true, &answer.said(!auto), answer.tone)
        }
        Ok(Err(e)) => said(
            StatusCode::OK,
            false,
            &format!("REFUSED, nothing recorded: {e}"),
        ),
        Err(_) => said(
            StatusCode::INTERNAL_SERVER_ERROR,
            false,
            "the roll could not be recorded (the hub's worker stopped): nothing was recorded",
        ),
    }
}

/// A wound's story: its chapters and its plot, for a wound the link shows.
async fn wound(
    State(page): State<Arc<Page>>,
    UrlPath((token, injury)): UrlPath<(String, String)>,
) -> Response {
    let link = match page.open(&token) {
        Opened::Live(l) => l,
        other => return refused(other),
    };
    let ledger = page.ledger();
    let v = view_of(&page, &link, &ledger);
    // The wound must be one of the characters the link shows in full.
    let owner = v.characters.iter().find_map(|(s, _)| match s {
        Shown::HarnMaster(c) if c.injuries.iter().any(|i| i.short_id == injury) => {
            Some(c.name.clone())
        }
        _ => None,
    });
    let Some(name) = owner else {
        return html_page(
            StatusCode::NOT_FOUND,
            html::notice("No such wound", "This page shows no such wound."),
        );
    };
    let db = page.db.clone();
    let told = tokio::task::spawn_blocking(move || {
        let replica = Replica::open(&db).map_err(leechbook_story::StoryError::from)?;
        leechbook_story::history::story(&replica, &name, Some(&injury)).map(|(story, samples)| {
            let title = match &story.injury {
                Some(i) => format!(
                    "{}'s {} {}{}",
                    story.character,
                    i.code,
                    i.side.map(|s| format!("{s} ")).unwrap_or_default(),
                    i.location
                ),
                None => story.character.clone(),
            };
            let lines: Vec<(String, String)> = story
                .entries
                .iter()
                .map(|e| (e.at.clone(), e.summary.clone()))
                .collect();
            let svg = (!samples.is_empty()).then(|| leechbook_views::plot::svg(&title, &samples));
            html::story(&title, &lines, svg.as_deref(), "../")
        })
    })
    .await;
    match told {
        Ok(Ok(body)) => html_page(StatusCode::OK, body),
        Ok(Err(e)) => html_page(
            StatusCode::CONFLICT,
            html::notice("No story", &e.to_string()),
        ),
        Err(_) => html_page(
            StatusCode::INTERNAL_SERVER_ERROR,
            html::notice("No story", "the hub's worker stopped"),
        ),
    }
}
