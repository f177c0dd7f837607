//! `chuhan serve` and `chuhan play`: a web server on 127.0.0.1 only that lists the run folders
//! under a root, shows their report.html (reloading itself while the run goes on), offers every
//! game of a run (`?all=1`), serves the folders' files, and hosts games against a player
//! ([`play`]). No path outside the root is ever served: paths are decoded, `.`/`..` segments
//! refused, and the resolved file must lie inside the canonical root.

pub mod http;
pub mod play;

use crate::report::html::{self, play_page::play_page, ReportOptions};
use http::{percent_decode, query_value, read_request, write_response, Request, Response};
use play::{PlayGames, PlayOptions};
use serde_json::Value;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use thiserror::Error;

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum WebError {
    /// Another program listens on the port.
    #[error("port {0} on 127.0.0.1 is already in use; choose another with --port")]
    PortInUse(u16),
    /// Binding failed otherwise.
    #[error("cannot listen on 127.0.0.1:{port}")]
    Bind {
        /// The port.
        port: u16,
        /// The cause.
        source: std::io::Error,
    },
    /// The root folder is not usable.
    #[error("cannot serve {path}")]
    Root {
        /// The folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// What the server does.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The folder whose run folders are listed (`None`: only `play`).
    pub root: Option<PathBuf>,
    /// The port (0: any free port).
    pub port: u16,
    /// How games are played.
    pub play: PlayOptions,
}

struct State {
    root: Option<PathBuf>,
    games: PlayGames,
}

/// A bound server, not yet answering.
pub struct Server {
    listener: TcpListener,
    state: Arc<State>,
}

impl Server {
    /// Binds 127.0.0.1:`port` (never another interface) and checks the root.
    pub fn bind(options: ServeOptions) -> Result<Server, WebError> {
        let root = match &options.root {
            Some(r) => Some(r.canonicalize().map_err(|source| WebError::Root {
                path: r.clone(),
                source,
            })?),
            None => None,
        };
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, options.port));
        let listener = TcpListener::bind(addr).map_err(|source| {
            if source.kind() == std::io::ErrorKind::AddrInUse {
                WebError::PortInUse(options.port)
            } else {
                WebError::Bind {
                    port: options.port,
                    source,
                }
            }
        })?;
        Ok(Server {
            listener,
            state: Arc::new(State {
                root,
                games: PlayGames::new(options.play),
            }),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
    }

    /// Answers requests until the process ends, one thread per connection.
    pub fn run(self) {
        for stream in self.listener.incoming().flatten() {
            let state = self.state.clone();
            std::thread::spawn(move || {
                if let Some(req) = read_request(&stream) {
                    let resp = handle(&state, &req);
                    let _ = write_response(&stream, &resp);
                }
            });
        }
    }
}

fn not_found() -> Response {
    Response::new(404, "text/plain; charset=utf-8", "not found")
}

/// The relative path of a run folder or file from the segments after `/runs/`: every segment
/// decoded and plain (no `.`, `..`, empty, backslash or NUL).
fn safe_relative(rest: &str) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for seg in rest.split('/').filter(|s| !s.is_empty()) {
        let seg = percent_decode(seg)?;
        if seg == "." || seg == ".." || seg.contains(['/', '\\', '\0']) {
            return None;
        }
        out.push(seg);
    }
    Some(out)
}

/// `root/rel` when it exists and, with every link resolved, lies inside `root`.
fn inside(root: &Path, rel: &Path) -> Option<PathBuf> {
    let full = root.join(rel).canonicalize().ok()?;
    full.starts_with(root).then_some(full)
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("csv" | "pgn" | "toml" | "txt" | "log" | "md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Run folders under `root` (a folder with a manifest.toml or a report.html), up to three
/// levels deep, as paths relative to it.
fn run_folders(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![(root.to_path_buf(), 0)];
    while let Some((dir, depth)) = stack.pop() {
        if dir != root && (dir.join("manifest.toml").is_file() || dir.join("report.html").is_file())
        {
            if let Ok(rel) = dir.strip_prefix(root) {
                out.push(rel.to_path_buf());
            }
        }
        if depth < 3 {
            if let Ok(rd) = std::fs::read_dir(&dir) {
                for e in rd.flatten() {
                    if e.file_type().is_ok_and(|t| t.is_dir()) {
                        stack.push((e.path(), depth + 1));
                    }
                }
            }
        }
    }
    out.sort();
    out
}

fn index_page(root: &Path) -> String {
    let mut rows = String::new();
    for rel in run_folders(root) {
        let shown = rel.to_string_lossy();
        let href: String = rel
            .components()
            .map(|c| encode(&c.as_os_str().to_string_lossy()))
            .collect::<Vec<_>>()
            .join("/");
        let games = std::fs::read(root.join(&rel).join("games.csv"))
            .map(|b| b.iter().filter(|&&c| c == b'\n').count().saturating_sub(1))
            .ok();
        rows.push_str(&format!(
            "<tr><td><a href=\"/runs/{href}/\">{}</a></td><td>{}</td><td><a href=\"/runs/{href}/?all=1\">all games</a></td></tr>",
            html_escape(&shown),
            games.map_or(String::new(), |g| g.to_string())
        ));
    }
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>chuhan serve</title></head><body>\
         <h1>Runs in {}</h1><p><a href=\"/play\">Play a game</a></p>\
         <table><tr><th>run</th><th>games</th><th></th></tr>{rows}</table></body></html>",
        html_escape(&root.to_string_lossy())
    )
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The stamp of a report.html (its `chuhan-stamp` meta element), which changes with every
/// rewrite.
fn stamp_of(page: &str) -> &str {
    page.split("name=\"chuhan-stamp\" content=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or("")
}

fn run_page(root: &Path, rest: &str, req: &Request) -> Response {
    let Some(rel) = safe_relative(rest) else {
        return Response::new(403, "text/plain; charset=utf-8", "forbidden path");
    };
    let Some(full) = inside(root, &rel) else {
        return not_found();
    };
    if full.is_file() {
        return match std::fs::read(&full) {
            Ok(bytes) => Response::new(200, content_type(&full), bytes),
            Err(_) => not_found(),
        };
    }
    let report = full.join("report.html");
    if query_value(&req.query, "stamp").is_some() {
        let page = std::fs::read_to_string(&report).unwrap_or_default();
        return Response::new(
            200,
            "text/plain; charset=utf-8",
            stamp_of(&page).to_string(),
        );
    }
    if query_value(&req.query, "all").is_some() || !report.is_file() {
        let games = html::read_games(&full).unwrap_or_default();
        let options = ReportOptions {
            max_games: None,
            live: false,
        };
        return Response::html(html::render(&full, &games, &options));
    }
    match std::fs::read(&report) {
        Ok(bytes) => Response::html(bytes),
        Err(_) => not_found(),
    }
}

fn json_field(body: &[u8], key: &str) -> String {
    serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|v| v.get(key).and_then(Value::as_str).map(str::to_string))
        .unwrap_or_default()
}

fn answer(result: Result<Value, play::Refusal>) -> Response {
    match result {
        Ok(v) => Response::json(200, &v),
        Err((status, text)) => Response::error(status, &text),
    }
}

fn api(state: &State, rest: &str, req: &Request) -> Response {
    let games = &state.games;
    let parts: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    match (req.method.as_str(), parts.as_slice()) {
        ("POST", []) => {
            let mut player = json_field(&req.body, "player");
            if player.trim().is_empty() {
                player = games.options().default_player.clone();
            }
            answer(games.create_with(
                &player,
                &json_field(&req.body, "human"),
                &json_field(&req.body, "fen"),
                &json_field(&req.body, "game"),
                &json_field(&req.body, "chess960"),
            ))
        }
        (method, [id, tail @ ..]) => {
            let Ok(id) = id.parse::<u64>() else {
                return not_found();
            };
            match (method, tail) {
                ("GET", []) => answer(games.state(id)),
                ("POST", ["move"]) => answer(games.play_move(id, &json_field(&req.body, "uci"))),
                ("POST", ["undo"]) => answer(games.undo(id)),
                ("GET", ["pgn"]) => match games.pgn(id) {
                    Ok(text) => Response::new(200, "application/x-chess-pgn", text).with_header(
                        "Content-Disposition",
                        &format!("attachment; filename=\"game-{id}.pgn\""),
                    ),
                    Err((status, text)) => Response::error(status, &text),
                },
                _ => Response::error(405, "unknown request"),
            }
        }
        _ => Response::error(405, "unknown request"),
    }
}

/// Whether the request names this machine's loopback as its host: a page of another site
/// that a DNS name rebound to 127.0.0.1 sends its own name and is refused.
fn loopback_host(host: &str) -> bool {
    let name = match host.rsplit_once(':') {
        Some((n, port)) if port.chars().all(|c| c.is_ascii_digit()) => n,
        _ => host,
    };
    ["127.0.0.1", "localhost", "[::1]"].contains(&name)
}

/// Answers one request.
fn handle(state: &State, req: &Request) -> Response {
    let path = req.path.as_str();
    if !loopback_host(&req.host) {
        return Response::error(403, "only requests for 127.0.0.1 or localhost are answered");
    }
    // Another site's page can send a form POST here but not a JSON one without a preflight,
    // which this server never grants: games (and the engines they start) need JSON.
    if req.method == "POST" && !req.content_type.starts_with("application/json") {
        return Response::error(415, "send JSON (Content-Type: application/json)");
    }
    if let Some(rest) = path.strip_prefix("/api/games") {
        return api(state, rest, req);
    }
    if req.method != "GET" && req.method != "HEAD" {
        return Response::error(405, "GET only");
    }
    if path == "/play" || (path == "/" && state.root.is_none()) {
        return Response::html(play_page(
            &state.games.options().default_player,
            state.games.options().kind,
        ));
    }
    let Some(root) = &state.root else {
        return not_found();
    };
    if path == "/" {
        return Response::html(index_page(root));
    }
    match path.strip_prefix("/runs/") {
        Some(rest) => run_page(root, rest, req),
        None => not_found(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_refuse_dot_segments_in_any_spelling() {
        assert_eq!(safe_relative("a/b/"), Some(PathBuf::from("a/b")));
        assert_eq!(safe_relative("../x"), None);
        assert_eq!(safe_relative("a/%2e%2e/x"), None);
        assert_eq!(safe_relative("a%2f..%2fx"), None);
        assert_eq!(safe_relative("a/%5c"), None);
        assert_eq!(safe_relative("%zz"), None);
    }

    #[test]
    fn only_loopback_hosts() {
        assert!(loopback_host("127.0.0.1:8080"));
        assert!(loopback_host("localhost"));
        assert!(!loopback_host("evil.example:8080"));
        assert!(!loopback_host(""));
    }

    #[test]
    fn stamp_is_found() {
        assert_eq!(
            stamp_of("<meta name=\"chuhan-stamp\" content=\"12-3\">"),
            "12-3"
        );
    }
}
