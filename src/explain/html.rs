//! An explanation as one self-contained HTML page: the puzzle as SVG scaled to the window, the controls fixed above it, and beside it each step's text, its rule's `when` and `then` drawn as small boards, and a legend; the slider, the arrow keys and buttons for the next step of a kind (rule, colouring, probing, search) step through the deductions.
//!
//! No network and no other file: the data is JSON inside the page, the drawing is built by
//! a small script. The steps are stored compactly as numbers (each step: its kind, its rule
//! or text, its anchor, and its edges as `2 * edge + (1 for a cross)`), and a step is drawn by
//! setting or clearing only its own edges, so stepping costs the same at any size. Keys: Left
//! and Right step, Home and End jump; opening the page as `...#end` jumps to the last step
//! (as End would), `...#42` shows step 42, `...#step` steps to the end with Right, one step
//! at a time, and `...#measure` steps through every step and back, writing the time each
//! took and where the board was into `<pre id="measure">` (for the browser test). Every edge of the drawing is an SVG
//! `line` with `data-edge="h R C"` (or `v R C`) and the class `edge line`, `edge cross` or
//! `edge unknown`, so that what is drawn can be read back from the page. For a puzzle with
//! several solutions, the edges that differ between them are drawn over the board as lines of
//! the class `undetermined` (with the same `data-edge`), at every step, with a legend entry.
//! A colour rule's pictures show its colour letters in their cells.

use super::{Step, steps as board_steps};
use crate::board::{Board, Reason};
use crate::deduce::Deducer;
use crate::deduce::ambiguity::Ambiguity;
use crate::format::view::{Edge, Marked, Picture};
use crate::rules::compile::RuleBook;
use crate::rules::{Colour, Fact, Glyph};
use serde::Serialize;
use std::collections::HashMap;

/// The kinds of step the page can jump between, as numbered in its data.
const KIND_RULE: i64 = 0;
const KIND_COLOURING: i64 = 1;
const KIND_PROBING: i64 = 2;
const KIND_SEARCH: i64 = 3;
const KIND_OTHER: i64 = 4;

/// A rule variant some step used: its name, file, line and symmetry, and its pictures as
/// `[y, x]` dots and `[y, x, glyph]` facts (glyph 1 a line, 2 a cross, 10 + n the clue n) on
/// the doubled lattice, and its colour letters as `[y, x, letter]` (the letter's character
/// code, as the rule's variant writes it).
#[derive(Serialize)]
struct PageRule {
    head: String,
    dots: Vec<[i32; 2]>,
    when: Vec<[i32; 3]>,
    then: Vec<[i32; 3]>,
    when_colours: Vec<[i32; 3]>,
    then_colours: Vec<[i32; 3]>,
}

#[derive(Serialize)]
struct Page {
    title: String,
    outcome: String,
    rows: usize,
    cols: usize,
    /// One character a cell, row by row: `.` for none, else the clue's digit.
    clues: String,
    /// The rule variants used, referred to by rule steps.
    rules: Vec<PageRule>,
    /// The words of the other steps, each once, referred to by those steps.
    texts: Vec<String>,
    /// How many steps.
    count: usize,
    /// The steps, one after the other: kind, rule or text, anchor row and column (doubled
    /// lattice; rule steps only), the count of edges, then the edges.
    steps: Vec<i64>,
    /// The edges (numbered as in `steps`) that differ between the puzzle's solutions.
    undetermined: Vec<i64>,
    /// Whether `undetermined` is every such edge (false: a budget ran out, there may be more).
    undetermined_complete: bool,
    /// What a step that decided no edge says in place of its edges.
    no_edge: &'static str,
}

fn facts(facts: &[Fact]) -> Vec<[i32; 3]> {
    facts
        .iter()
        .map(|f| {
            let glyph = match f.glyph {
                Glyph::Line => 1,
                Glyph::Cross => 2,
                Glyph::Clue(n) => 10 + i32::from(n),
            };
            [f.at.y, f.at.x, glyph]
        })
        .collect()
}

fn colours(colours: &[Colour]) -> Vec<[i32; 3]> {
    colours
        .iter()
        .map(|c| [c.at.y, c.at.x, c.glyph() as i32])
        .collect()
}

/// Builds the page's data from the steps.
struct Builder<'a> {
    book: &'a RuleBook,
    rows: usize,
    cols: usize,
    rules: Vec<PageRule>,
    rule_index: HashMap<u32, usize>,
    texts: Vec<String>,
    text_index: HashMap<String, usize>,
    steps: Vec<i64>,
}

impl Builder<'_> {
    /// The number on the page of the edge at (`y`, `x`) of the doubled lattice: horizontal
    /// edges row by row, then vertical ones.
    fn edge(&self, y: usize, x: usize) -> i64 {
        let index = if y.is_multiple_of(2) {
            (y / 2) * self.cols + x / 2
        } else {
            (self.rows + 1) * self.cols + (y / 2) * (self.cols + 1) + x / 2
        };
        index as i64
    }

    fn rule(&mut self, variant: u32) -> usize {
        if let Some(&k) = self.rule_index.get(&variant) {
            return k;
        }
        let v = &self.book.variants[variant as usize];
        let rule = &self.book.set.rules[v.rule];
        let mut then = v.premise.clone();
        then.extend(v.conclusion.iter().copied());
        self.rules.push(PageRule {
            head: format!(
                "{} ({}:{}), {}",
                rule.name, rule.file, rule.line, v.symmetry
            ),
            dots: v.dots.iter().map(|p| [p.y, p.x]).collect(),
            when: facts(&v.premise),
            then: facts(&v.conclusion),
            when_colours: colours(&v.premise_colours),
            then_colours: colours(&v.conclusion_colours),
        });
        self.rule_index.insert(variant, self.rules.len() - 1);
        self.rules.len() - 1
    }

    fn text(&mut self, text: String) -> usize {
        if let Some(&k) = self.text_index.get(&text) {
            return k;
        }
        self.texts.push(text.clone());
        self.text_index.insert(text, self.texts.len() - 1);
        self.texts.len() - 1
    }

    fn step(&mut self, step: &Step) {
        let (kind, what, (ay, ax)) = match step.reason {
            Reason::Rule { variant, .. } => (
                KIND_RULE,
                self.rule(variant),
                step.anchor.unwrap_or_default(),
            ),
            reason => {
                let kind = match reason {
                    Reason::By(Deducer::Colouring) => KIND_COLOURING,
                    Reason::By(Deducer::Probing) => KIND_PROBING,
                    Reason::By(Deducer::Search) | Reason::Guess => KIND_SEARCH,
                    _ => KIND_OTHER,
                };
                (kind, self.text(step.title(self.book)), (0, 0))
            }
        };
        self.steps.extend([
            kind,
            what as i64,
            ay as i64,
            ax as i64,
            step.decided.len() as i64,
        ]);
        for d in &step.decided {
            let cross = i64::from(d.edge != Edge::Line);
            let edge = self.edge(d.y, d.x);
            self.steps.push(2 * edge + cross);
        }
    }
}

/// The page explaining how `board` (kept with its reasons) was reached from `start`; for a
/// puzzle with several solutions, `ambiguity` says which edges differ between them.
pub fn render(
    title: &str,
    outcome: &str,
    start: &Picture,
    board: &Board,
    book: &RuleBook,
    ambiguity: Option<&Ambiguity>,
) -> String {
    let steps = board_steps(board);
    let mut builder = Builder {
        book,
        rows: start.rows,
        cols: start.cols,
        rules: Vec::new(),
        rule_index: HashMap::new(),
        texts: Vec::new(),
        text_index: HashMap::new(),
        steps: Vec::new(),
    };
    for step in &steps {
        builder.step(step);
    }
    let undetermined = ambiguity.map_or_else(Vec::new, |a| {
        let marked = Marked {
            board,
            undetermined: &a.undetermined,
        };
        let places = marked.places();
        places.iter().map(|&(y, x)| builder.edge(y, x)).collect()
    });
    let page = Page {
        title: title.to_string(),
        outcome: outcome.to_string(),
        rows: start.rows,
        cols: start.cols,
        clues: start
            .clues
            .iter()
            .map(|c| c.map_or('.', |n| char::from(b'0' + n.min(9))))
            .collect(),
        rules: builder.rules,
        texts: builder.texts,
        count: steps.len(),
        steps: builder.steps,
        undetermined,
        undetermined_complete: ambiguity.is_none_or(|a| a.complete),
        no_edge: super::NO_EDGE,
    };
    let data = script_json(&serde_json::to_string(&page).expect("pages serialize"));
    fill(TEMPLATE, &escape(title), &data)
}

/// The template with `{{TITLE}}` and `{{DATA}}` replaced in one pass over the template only:
/// a placeholder inside a substituted value (a file name with `{{DATA}}` in it) stays text.
fn fill(template: &str, title: &str, data: &str) -> String {
    let mut page = String::with_capacity(template.len() + 2 * title.len() + data.len());
    let mut rest = template;
    while let Some(at) = rest.find("{{") {
        page.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix("{{TITLE}}") {
            page.push_str(title);
            rest = after;
        } else if let Some(after) = tail.strip_prefix("{{DATA}}") {
            page.push_str(data);
            rest = after;
        } else {
            page.push_str("{{");
            rest = &tail[2..];
        }
    }
    page.push_str(rest);
    page
}

/// Text for HTML content and attribute values: `&`, `<`, `>`, `"` and `'` as entities.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON that is safe inside `<script>`: `<`, `>` and `&` (so no `</script>` and no `<!--`)
/// and U+2028, U+2029 written as `\u` escapes, which JSON reads back as the same characters.
/// They can only occur inside JSON strings, where the escapes mean the same text.
fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

const TEMPLATE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}}</title>
<style>
html, body { height: 100%; margin: 0; }
body { font-family: sans-serif; color: #222; display: flex; flex-direction: column; overflow: hidden; }
header { flex: none; padding: 0.4em 1em; border-bottom: 1px solid #ddd; background: #fafafa; }
h1 { font-size: 1.1em; margin: 0 0 0.2em; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#outcome { margin: 0 0 0.3em; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#controls, #jumps { white-space: nowrap; overflow-x: auto; margin: 0.2em 0; }
#slider { width: 30em; max-width: 50%; vertical-align: middle; }
#counter { display: inline-block; min-width: 10em; }
main { flex: 1; display: flex; min-height: 0; }
#view { flex: 1; min-width: 0; position: relative; }
#board { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
aside { flex: none; width: 22em; max-width: 40%; overflow-y: auto; border-left: 1px solid #ddd; padding: 0.5em 1em; }
#step { min-height: 6em; overflow-wrap: anywhere; }
#pictures { display: flex; gap: 0.8em; height: 10em; }
.picture { flex: 1; display: flex; flex-direction: column; min-width: 0; }
.picture svg { flex: 1; min-height: 0; width: 100%; border: 1px solid #eee; }
.edge { stroke-linecap: round; }
.edge.line { stroke: #1565c0; stroke-width: 5; }
.edge.cross { stroke: #c62828; stroke-width: 1.5; stroke-dasharray: 3 3; }
.edge.unknown { stroke: #e4e4e4; stroke-width: 1; }
.edge.new.line { stroke: #ff8f00; }
.edge.new.cross { stroke: #ff8f00; stroke-width: 3; }
.clue { font-size: 20px; text-anchor: middle; dominant-baseline: central; }
.letter { font-size: 15px; font-style: italic; font-weight: bold; fill: #2e7d32; text-anchor: middle; dominant-baseline: central; }
.letter.small { font-size: 10px; }
.letter.new { fill: #ff8f00; }
.undetermined { stroke: #d81b60; stroke-width: 3.5; stroke-dasharray: 0.1 7; stroke-dashoffset: -4.5; stroke-linecap: round; fill: none; pointer-events: none; }
.dot { fill: #222; }
#anchor, .anchor { fill: none; stroke: #6a1b9a; stroke-width: 3; }
.legend { list-style: none; padding: 0; margin: 0.5em 0; }
.legend li { margin: 0.2em 0; }
.legend svg { width: 40px; height: 16px; vertical-align: middle; margin-right: 0.4em; }
</style>
</head>
<body>
<header>
<h1>{{TITLE}}</h1>
<p id="outcome"></p>
<div id="controls">
<button id="first" title="the puzzle (Home)">&#9664;&#9664;</button>
<button id="prev" title="Left arrow">&#9664;</button>
<input id="slider" type="range" min="0" value="0">
<button id="next" title="Right arrow">&#9654;</button>
<button id="last" title="the last step (End)">&#9654;&#9654;</button>
<span id="counter"></span>
</div>
<div id="jumps"></div>
</header>
<main>
<div id="view"><svg id="board" xmlns="http://www.w3.org/2000/svg"></svg></div>
<aside>
<p id="step"></p>
<div id="pictures">
<div class="picture"><span>when</span><svg id="when" xmlns="http://www.w3.org/2000/svg"></svg></div>
<div class="picture"><span>then</span><svg id="then" xmlns="http://www.w3.org/2000/svg"></svg></div>
</div>
<ul class="legend" id="legend"></ul>
<pre id="measure" hidden></pre>
</aside>
</main>
<script type="application/json" id="data">{{DATA}}</script>
<script>
(function () {
  var data = JSON.parse(document.getElementById('data').textContent);
  var S = 36, M = 18, NS = 'http://www.w3.org/2000/svg';
  var rows = data.rows, cols = data.cols, count = data.count;
  var KINDS = ['rule', 'colouring', 'probing', 'search', 'other'];
  var STATES = ['unknown', 'line', 'cross'];
  function make(parent, name, attrs) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    parent.appendChild(e);
    return e;
  }
  // Where each step starts in data.steps, and each step's kind.
  var at = new Int32Array(count + 1), kind = new Int8Array(count);
  for (var i = 0, p = 0; i < count; i++) {
    at[i] = p;
    kind[i] = data.steps[p];
    p += 5 + data.steps[p + 4];
    at[i + 1] = p;
  }
  // The board: every edge once, then clues and dots.
  var svg = document.getElementById('board');
  var W = 2 * M + cols * S, H = 2 * M + rows * S;
  svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
  // In groups of one row each: a step changes a few edges, and the browser then measures
  // again only their rows and the groups, not every element of a large board.
  var grid = make(svg, 'g', { id: 'grid' });
  var edges = [], HE = (rows + 1) * cols, row;
  for (var r = 0; r <= rows; r++) {
    row = make(grid, 'g', {});
    for (var c = 0; c < cols; c++)
      edges.push(make(row, 'line', { x1: M + c * S, y1: M + r * S, x2: M + (c + 1) * S, y2: M + r * S,
        'class': 'edge unknown', 'data-edge': 'h ' + r + ' ' + c }));
  }
  for (var r = 0; r < rows; r++) {
    row = make(grid, 'g', {});
    for (var c = 0; c <= cols; c++)
      edges.push(make(row, 'line', { x1: M + c * S, y1: M + r * S, x2: M + c * S, y2: M + (r + 1) * S,
        'class': 'edge unknown', 'data-edge': 'v ' + r + ' ' + c }));
  }
  for (var r = 0; r < rows; r++) {
    row = make(grid, 'g', {});
    for (var c = 0; c < cols; c++) {
      var n = data.clues.charAt(r * cols + c);
      if (n !== '.') make(row, 'text', { x: M + c * S + S / 2, y: M + r * S + S / 2, 'class': 'clue' }).textContent = n;
    }
  }
  for (var r = 0; r <= rows; r++) {
    row = make(grid, 'g', {});
    for (var c = 0; c <= cols; c++)
      make(row, 'circle', { cx: M + c * S, cy: M + r * S, r: 2.5, 'class': 'dot' });
  }
  // The edges that differ between the solutions, drawn over the board at every step.
  var undetermined = data.undetermined;
  if (undetermined.length) {
    var over = make(svg, 'g', { id: 'undetermined' });
    undetermined.forEach(function (e) {
      var a = edges[e];
      make(over, 'line', { x1: a.getAttribute('x1'), y1: a.getAttribute('y1'), x2: a.getAttribute('x2'),
        y2: a.getAttribute('y2'), 'class': 'undetermined', 'data-undetermined': a.getAttribute('data-edge') });
    });
  }
  var anchor = make(svg, 'circle', { id: 'anchor', r: 9, visibility: 'hidden' });
  // Each edge's state, and what each step found there (for stepping back).
  var state = new Int8Array(edges.length), before = new Int8Array(data.steps.length);
  for (var i = 0; i < count; i++)
    for (var q = at[i] + 5; q < at[i + 1]; q++) {
      var e = data.steps[q] >> 1;
      before[q] = state[e];
      state[e] = (data.steps[q] & 1) ? 2 : 1;
    }
  state.fill(0);
  function paint(e, fresh) {
    edges[e].setAttribute('class', 'edge ' + STATES[state[e]] + (fresh && state[e] ? ' new' : ''));
  }
  function apply(i) {
    for (var q = at[i] + 5; q < at[i + 1]; q++) {
      var e = data.steps[q] >> 1;
      state[e] = (data.steps[q] & 1) ? 2 : 1;
      paint(e, false);
    }
  }
  function undo(i) {
    for (var q = at[i + 1] - 1; q >= at[i] + 5; q--) {
      var e = data.steps[q] >> 1;
      state[e] = before[q];
      paint(e, false);
    }
  }
  function mark(i, fresh) {
    if (i < 0) return;
    for (var q = at[i] + 5; q < at[i + 1]; q++) paint(data.steps[q] >> 1, fresh);
  }
  function edgeName(e) {
    if (e < HE) return 'h(' + Math.floor(e / cols) + ',' + (e % cols) + ')';
    e -= HE;
    return 'v(' + Math.floor(e / (cols + 1)) + ',' + (e % (cols + 1)) + ')';
  }
  function half(v) { return Math.floor(v / 2); }
  function place(y, x) {
    var oy = ((y % 2) + 2) % 2, ox = ((x % 2) + 2) % 2;
    if (oy === 0 && ox === 1) return 'the horizontal edge right of dot (' + half(y) + ', ' + half(x - 1) + ')';
    if (oy === 1 && ox === 0) return 'the vertical edge below dot (' + half(y - 1) + ', ' + half(x) + ')';
    if (oy === 1 && ox === 1) return 'cell (' + half(y - 1) + ', ' + half(x - 1) + ')';
    return 'dot (' + half(y) + ', ' + half(x) + ')';
  }
  function title(i) {
    var p = at[i], what = data.steps[p + 1];
    if (kind[i] === 0) return data.rules[what].head + ' at ' + place(data.steps[p + 2], data.steps[p + 3]);
    return data.texts[what];
  }
  function edgesText(i) {
    var words = [];
    for (var q = at[i] + 5; q < at[i + 1]; q++)
      words.push(((data.steps[q] & 1) ? 'cross ' : 'line ') + edgeName(data.steps[q] >> 1));
    return words.length ? words.join(', ') : data.no_edge;
  }
  // A rule's picture as a small board: its dots, its facts and its colour letters (from
  // `fresh` and `freshLetters` on, highlighted).
  function picture(el, rule, facts, fresh, letters, freshLetters) {
    while (el.firstChild) el.removeChild(el.firstChild);
    if (!rule) { el.removeAttribute('viewBox'); return; }
    var all = rule.dots.concat(rule.when, rule.then, rule.when_colours, rule.then_colours);
    var y0 = Infinity, x0 = Infinity, y1 = -Infinity, x1 = -Infinity;
    all.forEach(function (f) { y0 = Math.min(y0, f[0]); x0 = Math.min(x0, f[1]); y1 = Math.max(y1, f[0]); x1 = Math.max(x1, f[1]); });
    y0 -= ((y0 % 2) + 2) % 2; x0 -= ((x0 % 2) + 2) % 2;
    y1 += ((y1 % 2) + 2) % 2; x1 += ((x1 % 2) + 2) % 2;
    var s = 30, m = 12;
    var px = function (x) { return m + (x - x0) / 2 * s; };
    el.setAttribute('viewBox', '0 0 ' + (2 * m + (x1 - x0) / 2 * s) + ' ' + (2 * m + (y1 - y0) / 2 * s));
    facts.forEach(function (f, k) {
      var y = f[0], x = f[1], g = f[2], isNew = k >= fresh;
      if (g >= 10) {
        make(el, 'text', { x: px(x), y: px(y), 'class': 'clue' }).textContent = g - 10;
        return;
      }
      var cls = 'edge ' + (g === 1 ? 'line' : 'cross') + (isNew ? ' new' : '');
      if (y % 2 === 0) make(el, 'line', { x1: px(x - 1), y1: px(y), x2: px(x + 1), y2: px(y), 'class': cls });
      else make(el, 'line', { x1: px(x), y1: px(y - 1), x2: px(x), y2: px(y + 1), 'class': cls });
    });
    var clued = {};
    facts.forEach(function (f) { if (f[2] >= 10) clued[f[0] + ' ' + f[1]] = true; });
    letters.forEach(function (f, k) {
      // Beside a clue in the same cell, the letter goes small into the cell's corner.
      var small = clued[f[0] + ' ' + f[1]], d = small ? 0.3 * s : 0;
      make(el, 'text', { x: px(f[1]) - d, y: px(f[0]) - d,
        'class': 'letter' + (small ? ' small' : '') + (k >= freshLetters ? ' new' : '') }).textContent = String.fromCharCode(f[2]);
    });
    rule.dots.forEach(function (d) { make(el, 'circle', { cx: px(d[1]), cy: px(d[0]), r: 2.5, 'class': 'dot' }); });
  }
  var slider = document.getElementById('slider');
  slider.max = count;
  var current = 0, text = document.getElementById('step');
  var counter = document.getElementById('counter');
  var when = document.getElementById('when'), then = document.getElementById('then');
  function show(k) {
    k = Math.max(0, Math.min(count, k));
    mark(current - 1, false);
    while (current < k) apply(current++);
    while (current > k) undo(--current);
    mark(current - 1, true);
    slider.value = k;
    counter.textContent = 'step ' + k + ' of ' + count;
    var rule = null;
    if (k === 0) {
      text.textContent = 'The puzzle. Step through with the slider, the arrow keys or the buttons.';
      anchor.setAttribute('visibility', 'hidden');
    } else {
      var i = k - 1, p = at[i];
      text.textContent = k + '. ' + title(i) + ': ' + edgesText(i);
      if (kind[i] === 0) {
        rule = data.rules[data.steps[p + 1]];
        anchor.setAttribute('cx', M + data.steps[p + 3] / 2 * S);
        anchor.setAttribute('cy', M + data.steps[p + 2] / 2 * S);
        anchor.setAttribute('visibility', 'visible');
      } else {
        anchor.setAttribute('visibility', 'hidden');
      }
    }
    picture(when, rule, rule ? rule.when : [], Infinity, rule ? rule.when_colours : [], Infinity);
    picture(then, rule, rule ? rule.when.concat(rule.then) : [], rule ? rule.when.length : 0,
      rule ? rule.when_colours.concat(rule.then_colours) : [], rule ? rule.when_colours.length : 0);
  }
  // The next (or, `back`, the previous) step of a kind.
  function jump(want, back) {
    if (back) { for (var i = current - 2; i >= 0; i--) if (kind[i] === want) return show(i + 1); }
    else { for (var i = current; i < count; i++) if (kind[i] === want) return show(i + 1); }
  }
  var jumps = document.getElementById('jumps'), kinds = [0, 0, 0, 0, 0];
  for (var i = 0; i < count; i++) kinds[kind[i]]++;
  [0, 1, 2, 3].forEach(function (want) {
    var b = document.createElement('button');
    b.textContent = '\u25C0';
    b.title = 'the previous ' + KINDS[want] + ' step';
    b.disabled = kinds[want] === 0;
    b.addEventListener('click', function () { jump(want, true); });
    var f = document.createElement('button');
    f.textContent = KINDS[want] + ' (' + kinds[want] + ') \u25B6';
    f.title = 'the next ' + KINDS[want] + ' step';
    f.disabled = kinds[want] === 0;
    f.addEventListener('click', function () { jump(want, false); });
    jumps.appendChild(b); jumps.appendChild(f); jumps.appendChild(document.createTextNode(' '));
  });
  // The legend, drawn with the board's own classes.
  var legend = [['edge line', 'a line'], ['edge cross', 'a cross'], ['edge unknown', 'not decided yet'],
   ['edge new line', 'decided by this step (a line)'], ['edge new cross', 'decided by this step (a cross)'],
   ['anchor', "where the step's rule matched (its origin)"]];
  if (undetermined.length)
    legend.push(['undetermined', 'differs between the solutions (the steps explain the first found)']);
  if (data.rules.some(function (r) { return r.when_colours.length + r.then_colours.length > 0; }))
    legend.push(['letter', "in a rule's picture, cells with one letter are on the same side of the loop; a and A on opposite sides"]);
  legend.forEach(function (item) {
    var li = document.createElement('li');
    var s = make(li, 'svg', { viewBox: '0 0 40 16' });
    if (item[0] === 'anchor') make(s, 'circle', { cx: 20, cy: 8, r: 6, 'class': 'anchor' });
    else if (item[0] === 'letter') make(s, 'text', { x: 20, y: 8, 'class': 'letter' }).textContent = 'a A';
    else make(s, 'line', { x1: 4, y1: 8, x2: 36, y2: 8, 'class': item[0] });
    li.appendChild(document.createTextNode(item[1]));
    document.getElementById('legend').appendChild(li);
  });
  slider.addEventListener('input', function () { show(+slider.value); });
  document.getElementById('first').addEventListener('click', function () { show(0); });
  document.getElementById('prev').addEventListener('click', function () { show(current - 1); });
  document.getElementById('next').addEventListener('click', function () { show(current + 1); });
  document.getElementById('last').addEventListener('click', function () { show(count); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') show(current - 1);
    else if (e.key === 'ArrowRight') show(current + 1);
    else if (e.key === 'Home') show(0);
    else if (e.key === 'End') show(count);
    else return;
    e.preventDefault();
  });
  document.getElementById('outcome').textContent = data.outcome + ' in ' + count + (count === 1 ? ' step' : ' steps') +
    (undetermined.length ? '; the edges that differ are dotted' + (data.undetermined_complete ? '' : ' (those found in the time given)') : '');
  show(0);
  // For the browser test: steps forward then back (at most 300 each way, from the middle of a
  // long explanation), each timed with the layout it causes, the board's box noted.
  function measure() {
    function box(el) { var b = el.getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; }
    var from = Math.max(0, Math.floor(count / 2) - 150), to = Math.min(count, from + 300);
    show(from);
    var first = box(svg), grid0 = box(grid), moved = 0, times = [];
    var controls = document.getElementById('controls').getBoundingClientRect();
    var run = function (k) {
      var t = performance.now();
      show(k);
      var b = box(svg);
      times.push(performance.now() - t);
      for (var j = 0; j < 4; j++) moved = Math.max(moved, Math.abs(b[j] - first[j]));
    };
    for (var k = from + 1; k <= to; k++) run(k);
    for (var k = to - 1; k >= from; k--) run(k);
    var grid1 = box(grid);
    for (var j = 0; j < 4; j++) moved = Math.max(moved, Math.abs(grid1[j] - grid0[j]));
    var out = document.getElementById('measure');
    times.sort(function (a, b) { return a - b; });
    var total = times.reduce(function (a, b) { return a + b; }, 0), n = times.length;
    out.textContent = JSON.stringify({ steps: n, slowest_ms: n ? times[n - 1] : 0, mean_ms: total / Math.max(1, n),
      median_ms: n ? times[Math.floor(n / 2)] : 0, p95_ms: n ? times[Math.floor(0.95 * (n - 1))] : 0,
      moved_px: moved, board: grid0, window: [innerWidth, innerHeight],
      controls: [controls.left, controls.top, controls.right, controls.bottom] });
  }
  if (location.hash === '#end') {
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'End' }));
  } else if (location.hash === '#step') {
    for (var i = 0; i < count; i++)
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
  } else if (location.hash === '#measure') {
    measure();
  } else if (/^#[0-9]+$/.test(location.hash)) {
    show(+location.hash.slice(1));
  }
})();
</script>
</body>
</html>
"##;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_in_values_are_not_expanded() {
        let page = fill(
            "<t>{{TITLE}}</t><d>{{DATA}}</d>{{X}}",
            "{{DATA}}",
            "{{TITLE}}",
        );
        assert_eq!(page, "<t>{{DATA}}</t><d>{{TITLE}}</d>{{X}}");
    }

    #[test]
    fn titles_are_escaped() {
        assert_eq!(
            escape("<img src=x onerror='a'>&\""),
            "&lt;img src=x onerror=&#39;a&#39;&gt;&amp;&quot;"
        );
    }

    #[test]
    fn script_json_has_no_markup_characters_and_reads_back() {
        let text = "<!--<script></script> & \u{2028}\u{2029}";
        let json = script_json(&serde_json::to_string(text).unwrap());
        assert!(!json.contains(['<', '>', '&', '\u{2028}', '\u{2029}']));
        let back: String = serde_json::from_str(&json).unwrap();
        assert_eq!(back, text);
    }
}
