#!/usr/bin/env bash
# The test command: installs what the tests need on a fresh machine, then runs every test.
#   scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

fairy=/usr/games/fairy-stockfish
if [ ! -x "$fairy" ]; then
  echo "test.sh: installing fairy-stockfish (the move-generation oracle and UCI opponent)" >&2
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && apt-get install -y -qq fairy-stockfish >/dev/null
  else
    sudo apt-get update -qq && sudo apt-get install -y -qq fairy-stockfish >/dev/null
  fi
fi

# The browser tests (crates/cli/tests/cli/browser.rs) drive Debian's chromium through chromedriver;
# the CJK font makes the screenshots' pieces and Chinese moves readable.
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ] || [ ! -d /usr/share/fonts/truetype/wqy ]; then
  echo "test.sh: installing chromium, chromium-driver and fonts-wqy-zenhei (browser tests)" >&2
  pkgs="chromium chromium-driver fonts-wqy-zenhei"
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
  else
    sudo apt-get update -qq && sudo apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
  fi
fi

# The chess arena tests (crates/cli/tests/cli/games/chess_arena.rs) play Stockfish: installed here, and
# required (a missing Stockfish fails them instead of skipping them).
if [ ! -x /usr/games/stockfish ]; then
  echo "test.sh: installing stockfish (the chess oracle and UCI opponent)" >&2
  if [ "$(id -u)" -eq 0 ]; then
    apt-get install -y -qq stockfish >/dev/null || { apt-get update -qq && apt-get install -y -qq stockfish >/dev/null; }
  else
    sudo apt-get install -y -qq stockfish >/dev/null || { sudo apt-get update -qq && sudo apt-get install -y -qq stockfish >/dev/null; }
  fi
fi
export CHUHAN_REQUIRE_STOCKFISH=1

# The UCI player tests play Fairy-Stockfish: require it here rather than skip.
cargo test --workspace --locked

# Move generation against Fairy-Stockfish on a few seeded random games (the full cross-check
# is scripts/fairy_crosscheck.py with more games).
cargo build --release --locked --quiet
python3 scripts/fairy_crosscheck.py --games 2 --plies 30 --depth 2 --seed 7

# Fairy-Stockfish's own perft against ours on the whole suite, through `chuhan perft --engine`.
target/release/chuhan perft --engine configs/engines/fairy-stockfish.toml \
  --suite crates/engine/tests/data/xiangqi.epd --max-depth 3 | tail -n 1

# Chess move generation against Stockfish (Debian package `stockfish`) on seeded random games.
if [ ! -x /usr/games/stockfish ]; then
  echo "test.sh: installing stockfish (the chess move-generation oracle)" >&2
  if [ "$(id -u)" -eq 0 ]; then
    apt-get install -y -qq stockfish >/dev/null || { apt-get update -qq && apt-get install -y -qq stockfish >/dev/null; }
  else
    sudo apt-get install -y -qq stockfish >/dev/null || { sudo apt-get update -qq && sudo apt-get install -y -qq stockfish >/dev/null; }
  fi
fi
python3 scripts/stockfish_crosscheck.py --games 2 --plies 40 --depth 2 --seed 7
# The same from random Chess960 start positions (UCI_Chess960 castling).
python3 scripts/stockfish_crosscheck.py --chess960 --games 2 --plies 40 --depth 2 --seed 7

# Shards on a real one-node Slurm cluster, merged and compared with single-machine runs.
scripts/slurm/ci-cluster.sh
