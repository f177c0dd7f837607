//! `chuhan serve` and `chuhan play`: the arena's loopback web server (chuhan_arena::web).

use crate::common::flags::{GameArgs, LimitArgs};
use crate::common::setup::chess960_for;
use crate::EXIT_OK;
use chuhan_arena::play::any::GameKind;
use chuhan_arena::play::limits::LimitSpec;
use chuhan_arena::play::player::resolve_player_for;
use chuhan_arena::web::play::PlayOptions;
use chuhan_arena::web::{ServeOptions, Server};
use chuhan_engine::GameConfig;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// How the browser games are played (`serve`, `play`).
#[derive(Debug, Args)]
#[command(mut_arg("nodes", |a| a.help("Nodes per move of the player (default 10000)")))]
#[command(mut_arg("depth", |a| a.help("Depth per move of the player")))]
#[command(mut_arg("movetime", |a| a.help("Milliseconds per move of the player")))]
pub struct WebPlayArgs {
    /// The player's limit per move.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Repetition rules: `asian` or `check-only` (default asian).
    #[arg(long)]
    pub rules: Option<chuhan_engine::RuleSet>,
    /// Port on 127.0.0.1 (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The game the page offers first (xiangqi or chess).
    #[command(flatten)]
    pub game: GameArgs,
}

/// `chuhan serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The folder whose run folders are listed.
    #[arg(default_value = "results")]
    pub dir: PathBuf,
    /// The opponent the play page offers first.
    #[arg(long, default_value = "easy")]
    pub player: String,
    /// Limits, rules and port.
    #[command(flatten)]
    pub web: WebPlayArgs,
}

/// `chuhan play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The opponent: a level, `default`, `handcrafted`, an engine file or an external engine file.
    #[arg(long, default_value = "easy")]
    pub player: String,
    /// Folder the games are saved in as PGN (`game-<n>.pgn`).
    #[arg(long, default_value = "results/play")]
    pub save: PathBuf,
    /// Do not open the page in the desktop's browser (it is opened only when a display is
    /// set and `xdg-open` exists).
    #[arg(long)]
    pub no_open: bool,
    /// Limits, rules and port.
    #[command(flatten)]
    pub web: WebPlayArgs,
}

fn play_options(
    web: &WebPlayArgs,
    player: &str,
    save_dir: Option<PathBuf>,
) -> anyhow::Result<PlayOptions> {
    let l = &web.limits;
    let limit = LimitSpec::from_options(l.nodes, l.depth, l.movetime, None)?;
    // A misspelt player is a usage error now, not a failed request in the page later.
    let kind = web.game.kind().unwrap_or(GameKind::Xiangqi);
    resolve_player_for(player, kind).map_err(|e| anyhow::anyhow!("--player {player}: {e}"))?;
    Ok(PlayOptions {
        limit,
        game: GameConfig {
            rules: web.rules.unwrap_or_default(),
            ..GameConfig::default()
        },
        save_dir,
        default_player: player.to_string(),
        kind,
        chess960: chess960_for(&web.game, kind)?,
    })
}

fn start(options: ServeOptions, page: &str, open: bool) -> anyhow::Result<u8> {
    let server = Server::bind(options)?;
    let url = format!("http://{}{page}", server.local_addr());
    outln!("listening on {url}");
    // Tests and scripts read the address from the first line: do not leave it in a buffer.
    let _ = std::io::stdout().flush();
    let display =
        std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some();
    if open && display {
        // Best effort: without a desktop browser the printed address is enough.
        let _ = std::process::Command::new("xdg-open")
            .arg(&url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
    }
    server.run();
    Ok(EXIT_OK)
}

/// `chuhan serve [DIR]`.
pub fn serve(args: &ServeArgs) -> anyhow::Result<u8> {
    if !args.dir.is_dir() {
        anyhow::bail!("{} is not a folder", args.dir.display());
    }
    let save = args.dir.join("play");
    let options = ServeOptions {
        root: Some(args.dir.clone()),
        port: args.web.port,
        play: play_options(&args.web, &args.player, Some(save))?,
    };
    start(options, "/", false)
}

/// `chuhan play --player SPEC`.
pub fn play(args: &PlayArgs) -> anyhow::Result<u8> {
    let options = ServeOptions {
        root: None,
        port: args.web.port,
        play: play_options(&args.web, &args.player, Some(args.save.clone()))?,
    };
    start(options, "/play", !args.no_open)
}
