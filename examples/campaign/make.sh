#!/bin/sh
# Rebuilds the example campaign "The Last Map of Anselm Varre" from the answers files
# beside this script, in a scratch STORYTELLER_HOME, and copies what it made back here:
# the chapters' logs (1-hexaract.jsonl, ...), the campaign file (lastmap.toml), each
# chapter's story (1-hexaract.story.md, ...), its cast and threads (cast.txt), and the
# campaign as a book (book.md, book.html).
#
# To read it with storyteller, copy the logs into a sessions folder and lastmap.toml into
# its campaigns/ folder: storyteller campaign show lastmap.
#
#   sh examples/campaign/make.sh            # with storyteller on PATH
#   STORYTELLER=".venv/bin/storyteller" sh examples/campaign/make.sh
#
# The deals are the seeds' and the moves and answers are the files', so the logs come out
# the same each time but for their timestamps.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
st=${STORYTELLER:-storyteller}
STORYTELLER_HOME=$(mktemp -d)
export STORYTELLER_HOME
trap 'rm -rf "$STORYTELLER_HOME"' EXIT
sessions="$STORYTELLER_HOME/sessions"
mkdir -p "$sessions"

$st campaign new lastmap --answers "$here/new.txt" --plain

chapter() {  # chapter FILE GAME SEED: plays the next chapter from examples/campaign/FILE.txt
    $st play "$2" --seed "$3" --campaign lastmap --answers "$here/$1.txt" --log "$sessions/$1.jsonl" --plain
    cp "$sessions/$1.jsonl" "$here/$1.jsonl"
    $st export "$here/$1.jsonl" --story -o "$here/$1.story.md" --force
}

chapter 1-hexaract hexaract lastmap
chapter 2-adaman adaman signet
chapter 3-carddom carddom greycoat
chapter 4-cascades cascades eddy

cp "$sessions/campaigns/lastmap.toml" "$here/lastmap.toml"
$st campaign cast lastmap > "$here/cast.txt"

# The campaign as a book: its chapters' stories in one, with the cast and threads.
$st export --campaign lastmap -o "$here/book.md" --force
$st export --campaign lastmap --format html -o "$here/book.html" --force
