//! Joint ratings of any PGN collection (`chuhan rate`): our own games.pgn (xiangqi or chess),
//! chess PGNs of cutechess-cli or fastchess, xiangqi PGNs with `[Red]` or `[White]` tags.
//!
//! Only the tag pairs and the result are read (as Ordo and BayesElo do): the first player is
//! `Red` or `White`, the second `Black`, the result the `Result` tag or the result token; games
//! marked `*` (unfinished) are left out and counted. The game of a record is xiangqi when it
//! says `[Game "Chinese Chess"]` (or `Xiangqi`), `[Variant "xiangqi"]` or has a `Red` tag, chess
//! when it says `[Game "Chess"]`, a chess `Variant` or nothing; a collection holds one game.
//! Games whose `Round` is `P.G` (games.pgn: pair `P`, game `G`) between the same two players
//! form one game pair for the intervals (which cluster by pair); any other game is a unit of
//! its own.
//!
//! The fit is the ladder's ([`analyse_with`]): maximum likelihood with honest 95% intervals
//! (profile likelihood; one-sided exact bounds after a perfect score), optionally a first-move
//! advantage, ratings relative to an anchor. A collection whose games fall apart into groups
//! with no games between them is rated group by group.

use super::ladder::{analyse_with, describe_error, gaps_csv, Analysis, LadderError};
use crate::play::any::GameKind;
use crate::ratings::{fit_ratings, Bound, FirstMove, FitOptions, Prior, RatedGame, RatingError};
use chuhan_engine::game::Xiangqi;
use chuhan_engine::text::pgn::{Lexer, Token};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What `chuhan rate` was asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct RateOptions {
    /// The player rated `anchor_elo` (default: the lowest-rated player of each group).
    pub anchor: Option<String>,
    /// The anchor's rating.
    pub anchor_elo: f64,
    /// The first-move advantage: fixed (0: none) or estimated.
    pub first_move: FirstMove,
}

impl Default for RateOptions {
    fn default() -> Self {
        Self {
            anchor: None,
            anchor_elo: 0.0,
            first_move: FirstMove::Fixed(0.0),
        }
    }
}

/// Why a collection cannot be rated. Every message about the input names the file and line.
#[derive(Debug, thiserror::Error)]
pub enum RateError {
    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// Bad PGN at a line, or a game that cannot be rated.
    #[error("{}:{line}: {reason}", path.display())]
    Input {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A file holds no game.
    #[error("{}: no games (no PGN record with tags and a result)", path.display())]
    NoGames {
        /// The file.
        path: PathBuf,
    },
    /// `--anchor` names nobody in the collection.
    #[error("--anchor {0}: no player of that name in the games")]
    UnknownAnchor(String),
    /// The anchor's rating is not a number.
    #[error("--anchor-elo {0} is not a finite number")]
    BadAnchorElo(f64),
    /// The ratings could not be fitted.
    #[error("{0}")]
    Fit(String),
    /// An output file could not be written.
    #[error(transparent)]
    Write(#[from] LadderError),
}

/// One game of the collection, as read.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    /// Index of the file in the collection.
    pub file: usize,
    /// Line where the record starts.
    pub line: usize,
    /// First player (Red, White).
    pub first: String,
    /// Second player (Black).
    pub second: String,
    /// Score of the first player: 1, 0.5 or 0.
    pub score_first: f64,
    /// `P` of a `Round` tag `P.G`.
    pub round_pair: Option<u64>,
}

/// The games of a collection.
#[derive(Clone, Debug, PartialEq)]
pub struct Collection {
    /// The files, in order.
    pub files: Vec<PathBuf>,
    /// The game all records are of.
    pub kind: GameKind,
    /// The rated games, in file order.
    pub games: Vec<PgnGame>,
    /// Games left out because their result is `*`.
    pub unfinished: usize,
}

/// A record being read: its first line, its tags (name, value, line), its result token.
#[derive(Default)]
struct RawRecord {
    line: usize,
    tags: Vec<(String, String, usize)>,
    result_token: Option<(String, usize)>,
}

impl RawRecord {
    fn tag(&self, name: &str) -> Option<(&str, usize)> {
        self.tags
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, l)| (v.as_str(), *l))
    }
}

/// What a line of PGN holds for the records: the end of a game, a tag, a result token.
enum Piece {
    End,
    Tag(String, String),
    Result(String),
}

/// Splits a PGN text into records of tags and result tokens (moves are not read).
fn raw_records(path: &Path, text: &str) -> Result<Vec<RawRecord>, RateError> {
    let input = |line: usize, reason: String| RateError::Input {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let mut lexer = Lexer::default();
    let mut records: Vec<RawRecord> = Vec::new();
    let mut current = RawRecord::default();
    let mut started = false;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let mut tokens: Vec<Piece> = Vec::new();
        lexer
            .line::<Xiangqi>(number, line, |token| {
                match token {
                    Token::EndOfGame => tokens.push(Piece::End),
                    Token::Tag { name, value } => tokens.push(Piece::Tag(name.to_string(), value)),
                    Token::Result(r) => tokens.push(Piece::Result(r.to_string())),
                    Token::Move { .. } => {}
                }
                Ok(())
            })
            .map_err(|e| input(e.line, e.kind.to_string()))?;
        for piece in tokens {
            let (tag, result) = match piece {
                Piece::End => {
                    records.push(std::mem::take(&mut current));
                    started = false;
                    continue;
                }
                Piece::Tag(name, value) => (Some((name, value)), None),
                Piece::Result(r) => (None, Some(r)),
            };
            if let Some((name, value)) = tag {
                // A tag the record already has starts the next record (files of tags only).
                if started && current.tag(&name).is_some() {
                    records.push(std::mem::take(&mut current));
                    started = false;
                }
                if !started {
                    current.line = number;
                    started = true;
                }
                current.tags.push((name, value, number));
            }
            if let Some(r) = result {
                if !started {
                    current.line = number;
                    started = true;
                }
                if current.result_token.is_some() {
                    return Err(input(
                        number,
                        format!(
                            "'{r}' follows the result token; a new game must start with its tags"
                        ),
                    ));
                }
                current.result_token = Some((r, number));
            }
        }
    }
    lexer
        .finish::<Xiangqi>()
        .map_err(|e| input(e.line, e.kind.to_string()))?;
    if started {
        records.push(current);
    }
    Ok(records)
}

/// The game a record says it is of: `Ok(None)` when it says nothing (chess by default).
fn record_kind(path: &Path, r: &RawRecord) -> Result<Option<GameKind>, RateError> {
    let unknown = |line: usize, what: String| RateError::Input {
        path: path.to_path_buf(),
        line,
        reason: format!("unknown game: {what}; chuhan rate reads xiangqi and chess games"),
    };
    let mut said: Option<(GameKind, String)> = None;
    let mut say = |kind: GameKind, what: String, line: usize| -> Result<(), RateError> {
        match &said {
            Some((k, first)) if *k != kind => Err(RateError::Input {
                path: path.to_path_buf(),
                line,
                reason: format!("the record says {first} but also {what}"),
            }),
            _ => {
                said.get_or_insert((kind, what));
                Ok(())
            }
        }
    };
    if let Some((game, line)) = r.tag("Game") {
        let g = game.trim().to_ascii_lowercase();
        let kind = match g.as_str() {
            "chinese chess" | "xiangqi" => GameKind::Xiangqi,
            "chess" => GameKind::Chess,
            _ => return Err(unknown(line, format!("[Game \"{game}\"]"))),
        };
        say(kind, format!("[Game \"{game}\"]"), line)?;
    }
    if let Some((variant, line)) = r.tag("Variant") {
        let v = variant
            .trim()
            .to_ascii_lowercase()
            .replace([' ', '-', '_'], "");
        let kind = match v.as_str() {
            "xiangqi" | "chinesechess" => GameKind::Xiangqi,
            "standard" | "chess" | "normal" | "chess960" | "fischerandom" | "fischerrandom" => {
                GameKind::Chess
            }
            _ => return Err(unknown(line, format!("[Variant \"{variant}\"]"))),
        };
        say(kind, format!("[Variant \"{variant}\"]"), line)?;
    }
    if let Some((_, line)) = r.tag("Red") {
        say(GameKind::Xiangqi, "a Red tag".to_string(), line)?;
    }
    Ok(said.map(|(k, _)| k))
}

/// Reads the games of `files` (tags and results only). Errors name the file and line: a
/// malformed tag, a record without players or result, games of an unknown game or of two
/// games, a file with no games.
pub fn read_collection(files: &[PathBuf]) -> Result<Collection, RateError> {
    let mut games = Vec::new();
    let mut unfinished = 0;
    // The game of the collection and where it was first said (file, line, explicitly).
    let mut kind: Option<(GameKind, usize, usize, bool)> = None;
    for (f, path) in files.iter().enumerate() {
        let text = std::fs::read_to_string(path).map_err(|source| RateError::Read {
            path: path.clone(),
            source,
        })?;
        let input = |line: usize, reason: String| RateError::Input {
            path: path.clone(),
            line,
            reason,
        };
        let records = raw_records(path, &text)?;
        let mut found = 0;
        for r in &records {
            let said = record_kind(path, r)?;
            let this = said.unwrap_or(GameKind::Chess);
            match kind {
                None => kind = Some((this, f, r.line, said.is_some())),
                Some((k, kf, kl, _)) if k != this => {
                    return Err(input(
                        r.line,
                        format!(
                            "a {this} game in a collection of {k} games (the first, {}:{kl}, is {k}); rate one game at a time",
                            files[kf].display()
                        ),
                    ))
                }
                Some(_) => {}
            }
            let first = match (r.tag("Red"), r.tag("White")) {
                (Some((red, line)), Some((white, _))) if red != white => {
                    return Err(input(
                        line,
                        format!("[Red \"{red}\"] and [White \"{white}\"] name different players"),
                    ))
                }
                (Some((p, _)), _) | (None, Some((p, _))) => p.to_string(),
                (None, None) => {
                    return Err(input(
                        r.line,
                        "the game has no White (or Red) tag naming its first player".into(),
                    ))
                }
            };
            let Some((second, _)) = r.tag("Black") else {
                return Err(input(
                    r.line,
                    "the game has no Black tag naming its second player".into(),
                ));
            };
            let result = match (r.tag("Result"), &r.result_token) {
                (Some((tag, line)), Some((token, _)))
                    if tag != token && tag != "*" && token != "*" =>
                {
                    return Err(input(
                        line,
                        format!("the Result tag '{tag}' disagrees with the result token '{token}'"),
                    ))
                }
                (Some(("*", _)), Some((token, _))) => token.clone(),
                (Some((tag, _)), _) => tag.to_string(),
                (None, Some((token, _))) => token.clone(),
                (None, None) => {
                    return Err(input(
                        r.line,
                        "the game has no result (no Result tag, no result token)".into(),
                    ))
                }
            };
            let score_first = match result.as_str() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                "*" => {
                    unfinished += 1;
                    found += 1;
                    continue;
                }
                other => {
                    let line = r.tag("Result").map_or(r.line, |(_, l)| l);
                    return Err(input(
                        line,
                        format!("Result '{other}' is not 1-0, 0-1, 1/2-1/2 or *"),
                    ));
                }
            };
            let first = first.trim().to_string();
            let second = second.trim().to_string();
            if first == second {
                return Err(input(r.line, format!("'{first}' plays itself")));
            }
            let round_pair = r.tag("Round").and_then(|(round, _)| {
                let (p, g) = round.split_once('.')?;
                g.parse::<u64>().ok()?;
                p.parse::<u64>().ok()
            });
            games.push(PgnGame {
                file: f,
                line: r.line,
                first,
                second,
                score_first,
                round_pair,
            });
            found += 1;
        }
        if found == 0 {
            return Err(RateError::NoGames { path: path.clone() });
        }
    }
    check_spellings(files, &games)?;
    Ok(Collection {
        files: files.to_vec(),
        kind: kind.map_or(GameKind::Chess, |k| k.0),
        games,
        unfinished,
    })
}

/// A name's spelling-free form: lower case, letters and digits only.
fn folded(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Refuses two spellings of one name (`Stockfish 16` and `stockfish_16`), naming both and
/// where each first appears.
fn check_spellings(files: &[PathBuf], games: &[PgnGame]) -> Result<(), RateError> {
    let mut seen: BTreeMap<String, (&str, &PgnGame)> = BTreeMap::new();
    for g in games {
        for name in [&g.first, &g.second] {
            match seen.get(&folded(name)) {
                Some((other, at)) if *other != name.as_str() => {
                    return Err(RateError::Input {
                        path: files[g.file].clone(),
                        line: g.line,
                        reason: format!(
                            "player '{name}' is spelled '{other}' at {}:{}; one player must have one name",
                            files[at.file].display(),
                            at.line
                        ),
                    });
                }
                Some(_) => {}
                None => {
                    seen.insert(folded(name), (name.as_str(), g));
                }
            }
        }
    }
    Ok(())
}

/// The ratings of one connected group of players.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupRatings {
    /// The fit: players in rating order (lowest first; the table sorts strongest first), Elo
    /// relative to the anchor plus the anchor's rating, gaps between neighbours in that order.
    pub analysis: Analysis,
    /// The anchor's name.
    pub anchor: String,
    /// Likelihood of superiority: `los[i][j]` the probability that player `i` (in
    /// `analysis.players` order) is stronger than `j`, from the normal approximation of the fit
    /// (inverse-Hessian covariance scaled by the dispersion).
    pub los: Vec<Vec<f64>>,
}

/// The ratings of a collection.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// One entry per connected group, the largest first (one when the collection is connected).
    pub groups: Vec<GroupRatings>,
}

/// Rates a collection: group by group when the games fall apart (see the module
/// documentation).
pub fn rate(collection: &Collection, options: &RateOptions) -> Result<Rated, RateError> {
    if !options.anchor_elo.is_finite() {
        return Err(RateError::BadAnchorElo(options.anchor_elo));
    }
    let mut names: Vec<String> = Vec::new();
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for g in &collection.games {
        for name in [&g.first, &g.second] {
            if !index.contains_key(name.as_str()) {
                index.insert(name, names.len());
                names.push(name.clone());
            }
        }
    }
    if let Some(a) = &options.anchor {
        if !index.contains_key(a.as_str()) {
            return Err(RateError::UnknownAnchor(a.clone()));
        }
    }
    let pairs = |g: &PgnGame| (index[g.first.as_str()], index[g.second.as_str()]);
    let groups = components(names.len(), collection.games.iter().map(pairs));
    let mut out = Vec::new();
    for members in groups {
        let local: BTreeMap<usize, usize> =
            members.iter().enumerate().map(|(l, &p)| (p, l)).collect();
        let games: Vec<&PgnGame> = collection
            .games
            .iter()
            .filter(|g| local.contains_key(&pairs(g).0))
            .collect();
        let group_names: Vec<String> = members.iter().map(|&p| names[p].clone()).collect();
        out.push(rate_group(&games, &group_names, options)?);
    }
    Ok(Rated { groups: out })
}

/// Connected groups of players given the pairings of the games, the largest first (ties by
/// first appearance), members in order of appearance.
fn components(n: usize, pairings: impl Iterator<Item = (usize, usize)>) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (a, b) in pairings {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for p in 0..n {
        let r = root(&mut parent, p);
        groups.entry(r).or_default().push(p);
    }
    let mut groups: Vec<Vec<usize>> = groups.into_values().collect();
    groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
    groups
}

/// Rating-model games of `games` between `names` (pairs from `Round` tags `P.G` of one file
/// between the same two players).
fn rated_games(games: &[&PgnGame], names: &[String]) -> Vec<RatedGame> {
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut pair_ids: BTreeMap<(usize, u64), (u64, usize, usize)> = BTreeMap::new();
    let mut next = 0u64;
    let mut fresh = || {
        next += 1;
        next - 1
    };
    games
        .iter()
        .map(|g| {
            let (a, b) = (index[g.first.as_str()], index[g.second.as_str()]);
            let players = (a.min(b), a.max(b));
            let pair_id = match g.round_pair {
                Some(p) => match pair_ids.get(&(g.file, p)) {
                    Some(&(id, x, y)) if (x, y) == players => id,
                    Some(_) => fresh(),
                    None => {
                        let id = fresh();
                        pair_ids.insert((g.file, p), (id, players.0, players.1));
                        id
                    }
                },
                None => fresh(),
            };
            RatedGame {
                pair_id,
                first: a,
                second: b,
                score_first: g.score_first,
            }
        })
        .collect()
}

fn fit_error(e: &RatingError, names: &[String]) -> RateError {
    RateError::Fit(describe_error(e, names))
}

/// Rates one connected group: players reordered by rating (lowest first), anchored, shifted
/// by the anchor's rating.
fn rate_group(
    games: &[&PgnGame],
    names: &[String],
    options: &RateOptions,
) -> Result<GroupRatings, RateError> {
    // A first fit orders the players (a weak prior keeps a perfect score finite for ordering).
    let first = rated_games(games, names);
    let base = FitOptions {
        first_move: options.first_move,
        ..FitOptions::default()
    };
    let order_fit = fit_ratings(&first, names.len(), &base)
        .or_else(|_| {
            fit_ratings(
                &first,
                names.len(),
                &FitOptions {
                    prior: Prior::DrawsPerPairing(1.0),
                    ..base
                },
            )
        })
        .map_err(|e| fit_error(&e, names))?;
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| {
        order_fit.ratings[a]
            .partial_cmp(&order_fit.ratings[b])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let sorted: Vec<String> = order.iter().map(|&i| names[i].clone()).collect();
    let anchor = options
        .anchor
        .as_ref()
        .and_then(|a| sorted.iter().position(|n| n == a))
        .unwrap_or(0);
    let games = rated_games(games, &sorted);
    let mut analysis = analyse_with(&games, &sorted, anchor, options.first_move)
        .map_err(|e| fit_error(&e, &sorted))?;
    let shift = options.anchor_elo;
    let moved = |b: Bound| Bound {
        low: b.low.map(|x| x + shift),
        high: b.high.map(|x| x + shift),
    };
    for p in &mut analysis.players {
        p.elo = p.elo.map(|e| e + shift);
        p.shrunk += shift;
        p.interval = moved(p.interval);
    }
    let los = likelihood_of_superiority(&games, sorted.len(), options, analysis.honest.dispersion)
        .map_err(|e| fit_error(&e, &sorted))?;
    Ok(GroupRatings {
        anchor: sorted[anchor].clone(),
        analysis,
        los,
    })
}

/// `los[i][j]`: the probability that `i` is stronger than `j`, `Phi(d / se)` with `d` the
/// fitted difference and `se` its inverse-Hessian standard error times `sqrt(dispersion)`
/// (a weak prior of one virtual draw per pairing when a perfect score leaves a rating
/// infinite).
fn likelihood_of_superiority(
    games: &[RatedGame],
    n: usize,
    options: &RateOptions,
    dispersion: f64,
) -> Result<Vec<Vec<f64>>, RatingError> {
    let base = FitOptions {
        first_move: options.first_move,
        ..FitOptions::default()
    };
    let fit = match fit_ratings(games, n, &base) {
        Ok(f) => f,
        Err(_) => fit_ratings(
            games,
            n,
            &FitOptions {
                prior: Prior::DrawsPerPairing(1.0),
                ..base
            },
        )?,
    };
    let mut los = vec![vec![0.5; n]; n];
    for (i, row) in los.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            if i == j {
                continue;
            }
            let d = fit.ratings[i] - fit.ratings[j];
            let se = fit.difference_std_error(i, j).unwrap_or(0.0) * dispersion.sqrt();
            *cell = if se > 0.0 {
                chuhan_stats::elo::normal_cdf(d / se)
            } else {
                0.5
            };
        }
    }
    Ok(los)
}

/// The header of los.csv's first column; the other columns are the players.
pub const LOS_FIRST_COLUMN: &str = "name";

impl GroupRatings {
    /// Player indices strongest first (the ratings table's order).
    pub fn strongest_first(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.analysis.players.len()).collect();
        idx.reverse();
        idx
    }

    /// The likelihood-of-superiority matrix as rows of text, strongest first: the row player
    /// is stronger than the column player with this probability (percent; empty diagonal).
    pub fn los_rows(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let idx = self.strongest_first();
        let header = std::iter::once(String::new())
            .chain(idx.iter().map(|&i| self.analysis.players[i].name.clone()))
            .collect();
        let rows = idx
            .iter()
            .map(|&i| {
                std::iter::once(self.analysis.players[i].name.clone())
                    .chain(idx.iter().map(|&j| {
                        if i == j {
                            String::new()
                        } else {
                            format!("{:.1}", 100.0 * self.los[i][j])
                        }
                    }))
                    .collect()
            })
            .collect();
        (header, rows)
    }

    /// los.csv: `name,<players...>` strongest first, each cell the probability in percent that
    /// the row player is stronger than the column player.
    pub fn los_csv(&self) -> Result<String, RateError> {
        let (mut header, rows) = self.los_rows();
        header[0] = LOS_FIRST_COLUMN.to_string();
        let mut w = csv::Writer::from_writer(Vec::new());
        let csv_err = |e: csv::Error| RateError::Write(LadderError::from(e));
        w.write_record(&header).map_err(csv_err)?;
        for r in &rows {
            w.write_record(r).map_err(csv_err)?;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| csv_err(csv::Error::from(e.into_error())))?;
        Ok(String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8"))
    }

    /// Writes ratings.csv, gaps.csv and los.csv into `dir` (created).
    pub fn write(&self, dir: &Path) -> Result<(), RateError> {
        let write = |name: &str, text: String| {
            std::fs::write(dir.join(name), text).map_err(|source| {
                RateError::Write(LadderError::Write {
                    path: dir.join(name),
                    source,
                })
            })
        };
        std::fs::create_dir_all(dir).map_err(|source| {
            RateError::Write(LadderError::Write {
                path: dir.to_path_buf(),
                source,
            })
        })?;
        write("ratings.csv", self.analysis.ratings_csv()?)?;
        write("gaps.csv", gaps_csv(&self.analysis.gaps)?)?;
        write("los.csv", self.los_csv()?)?;
        Ok(())
    }
}

impl Rated {
    /// Writes the outputs into `dir`: ratings.csv, gaps.csv and los.csv for a connected
    /// collection; for one that falls apart, groups.csv (`group,name`) and the three files of
    /// group `k` in `dir/group-k/`. Returns the folders written.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, RateError> {
        if let [only] = &self.groups[..] {
            only.write(dir)?;
            return Ok(vec![dir.to_path_buf()]);
        }
        let mut folders = Vec::new();
        let mut w = csv::Writer::from_writer(Vec::new());
        let csv_err = |e: csv::Error| RateError::Write(LadderError::from(e));
        w.write_record(["group", "name"]).map_err(csv_err)?;
        for (k, g) in self.groups.iter().enumerate() {
            for p in &g.analysis.players {
                w.write_record([(k + 1).to_string(), p.name.clone()])
                    .map_err(csv_err)?;
            }
            let folder = dir.join(format!("group-{}", k + 1));
            g.write(&folder)?;
            folders.push(folder);
        }
        let bytes = w
            .into_inner()
            .map_err(|e| csv_err(csv::Error::from(e.into_error())))?;
        std::fs::write(dir.join("groups.csv"), bytes).map_err(|source| {
            RateError::Write(LadderError::Write {
                path: dir.join("groups.csv"),
                source,
            })
        })?;
        Ok(folders)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        std::fs::create_dir_all(dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("chuhan-rate-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn records_are_read_from_tags_and_result_tokens() {
        let dir = scratch("read");
        let text = "[Event \"x\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Round \"3.1\"]\n\n1. e4 {[White \"no\"] a comment} e5 1-0\n\n\
                    [White \"b\"]\n[Black \"a\"]\n\n1. d4 1/2-1/2\n\n\
                    [White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n*\n";
        let p = write(&dir, "a.pgn", text);
        let c = read_collection(&[p]).unwrap();
        assert_eq!(c.kind, GameKind::Chess);
        assert_eq!(c.unfinished, 1);
        assert_eq!(c.games.len(), 2);
        assert_eq!((c.games[0].line, c.games[0].score_first), (1, 1.0));
        assert_eq!(c.games[0].round_pair, Some(3));
        assert_eq!(
            (
                c.games[1].first.as_str(),
                c.games[1].score_first,
                c.games[1].line
            ),
            ("b", 0.5, 9)
        );
    }

    #[test]
    fn bad_input_names_the_file_and_line() {
        let dir = scratch("bad");
        let cases = [
            ("[White \"a\"]\n[Black \"b\"]\n\n1. e4\n", "a.pgn:1: ", "no result"),
            ("[White \"a\"]\n[Black \"b\"]\n[Result \"2-0\"]\n", "a.pgn:3: ", "not 1-0"),
            ("[Game \"Shogi\"]\n[White \"a\"]\n[Black \"b\"]\n1-0\n", "a.pgn:1: ", "unknown game"),
            (
                "[Red \"a\"]\n[Black \"b\"]\n1-0\n\n[White \"a\"]\n[Black \"b\"]\n0-1\n",
                "a.pgn:5: ",
                "a chess game in a collection of xiangqi games",
            ),
            (
                "[White \"Stock fish\"]\n[Black \"b\"]\n1-0\n\n[White \"stockfish\"]\n[Black \"b\"]\n0-1\n",
                "a.pgn:5: ",
                "spelled 'Stock fish'",
            ),
            ("[Red \"a\"]\n[White \"c\"]\n[Black \"b\"]\n1-0\n", "a.pgn:1: ", "different players"),
            ("[White \"a\"]\n[Black \"b\"\n1-0\n", "a.pgn:2: ", "malformed tag"),
            ("[White \"a\"]\n1-0\n", "a.pgn:1: ", "no Black tag"),
        ];
        for (text, at, what) in cases {
            let p = write(&dir, "a.pgn", text);
            let e = read_collection(&[p]).unwrap_err().to_string();
            assert!(e.contains(at) && e.contains(what), "{text:?}: {e}");
        }
        let p = write(&dir, "a.pgn", "; nothing here\n");
        let e = read_collection(&[p]).unwrap_err().to_string();
        assert!(e.contains("a.pgn: no games"), "{e}");
    }

    #[test]
    fn groups_are_found_and_rated_apart() {
        let groups = components(5, [(0, 1), (2, 3), (3, 4)].into_iter());
        assert_eq!(groups, vec![vec![2, 3, 4], vec![0, 1]]);
    }
}
