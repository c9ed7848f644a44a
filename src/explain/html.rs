//! An explanation as one self-contained HTML page: the puzzle as SVG, a slider and the arrow keys to step through the deductions, each step's rule drawn as its picture and the edges it decided highlighted on the board.
//!
//! No network and no other file: the data is JSON inside the page, the drawing is built by
//! a small script. Keys: Left and Right step, Home and End jump; opening the page as
//! `...#end` jumps to the last step (as End would), `...#step` steps to it with Right, one
//! step at a time. Every edge of the drawing is an SVG
//! `line` with `data-edge="h R C"` (or `v R C`) and the class `edge line`, `edge cross` or
//! `edge unknown`, so that what is drawn can be read back from the page.

use super::{Step, steps as board_steps};
use crate::board::Board;
use crate::format::view::{Edge, Picture};
use crate::rules::compile::RuleBook;
use serde::Serialize;

#[derive(Serialize)]
struct PageStep {
    title: String,
    edges: String,
    when: Option<String>,
    then: Option<String>,
    decided: Vec<(usize, usize, u8)>,
}

#[derive(Serialize)]
struct Page {
    title: String,
    outcome: String,
    rows: usize,
    cols: usize,
    clues: Vec<Option<u8>>,
    steps: Vec<PageStep>,
}

fn page_step(step: &Step, book: &RuleBook) -> PageStep {
    let pictures = step.rule_pictures(book);
    PageStep {
        title: step.title(book),
        edges: step.edges_text(),
        when: pictures.as_ref().map(|p| p.0.clone()),
        then: pictures.map(|p| p.1),
        decided: step
            .decided
            .iter()
            .map(|d| (d.y, d.x, if d.edge == Edge::Line { 1 } else { 2 }))
            .collect(),
    }
}

/// The page explaining how `board` (kept with its reasons) was reached from `start`.
pub fn render(
    title: &str,
    outcome: &str,
    start: &Picture,
    board: &Board,
    book: &RuleBook,
) -> String {
    let page = Page {
        title: title.to_string(),
        outcome: outcome.to_string(),
        rows: start.rows,
        cols: start.cols,
        clues: start.clues.clone(),
        steps: board_steps(board)
            .iter()
            .map(|s| page_step(s, book))
            .collect(),
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
<title>{{TITLE}}</title>
<style>
body { font-family: sans-serif; margin: 1.5em; color: #222; }
#board { border: 1px solid #ccc; max-width: 100%; height: auto; }
.edge { stroke-linecap: round; }
.edge.line { stroke: #1565c0; stroke-width: 5; }
.edge.cross { stroke: #c62828; stroke-width: 1.5; stroke-dasharray: 3 3; }
.edge.unknown { stroke: #eeeeee; stroke-width: 1; }
.edge.new.line { stroke: #ff8f00; }
.edge.new.cross { stroke: #ff8f00; stroke-width: 3; }
.clue { font-size: 20px; text-anchor: middle; dominant-baseline: central; }
.dot { fill: #222; }
#controls { margin: 0.8em 0; }
#slider { width: 40em; max-width: 90%; }
pre { background: #f6f6f6; padding: 0.5em; display: inline-block; margin-right: 1em; vertical-align: top; }
</style>
</head>
<body>
<h1>{{TITLE}}</h1>
<p id="outcome"></p>
<div id="controls">
<button id="prev" title="Left arrow">&#9664;</button>
<input id="slider" type="range" min="0" value="0">
<button id="next" title="Right arrow">&#9654;</button>
<span id="counter"></span>
</div>
<p id="step"></p>
<div id="rule"></div>
<svg id="board" xmlns="http://www.w3.org/2000/svg"></svg>
<script type="application/json" id="data">{{DATA}}</script>
<script>
(function () {
  var data = JSON.parse(document.getElementById('data').textContent);
  var S = 36, M = 18, NS = 'http://www.w3.org/2000/svg';
  var svg = document.getElementById('board');
  var W = 2 * M + data.cols * S, H = 2 * M + data.rows * S;
  svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
  svg.setAttribute('width', W);
  svg.setAttribute('height', H);
  function el(name, attrs) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    svg.appendChild(e);
    return e;
  }
  var edges = {};
  function edge(kind, r, c, x1, y1, x2, y2) {
    var key = kind + ' ' + r + ' ' + c;
    edges[key] = el('line', { x1: x1, y1: y1, x2: x2, y2: y2, 'class': 'edge unknown', 'data-edge': key });
  }
  for (var r = 0; r <= data.rows; r++)
    for (var c = 0; c < data.cols; c++)
      edge('h', r, c, M + c * S, M + r * S, M + (c + 1) * S, M + r * S);
  for (var r = 0; r < data.rows; r++)
    for (var c = 0; c <= data.cols; c++)
      edge('v', r, c, M + c * S, M + r * S, M + c * S, M + (r + 1) * S);
  for (var r = 0; r < data.rows; r++)
    for (var c = 0; c < data.cols; c++) {
      var n = data.clues[r * data.cols + c];
      if (n !== null) {
        var t = el('text', { x: M + c * S + S / 2, y: M + r * S + S / 2, 'class': 'clue' });
        t.textContent = n;
      }
    }
  for (var r = 0; r <= data.rows; r++)
    for (var c = 0; c <= data.cols; c++)
      el('circle', { cx: M + c * S, cy: M + r * S, r: 2.5, 'class': 'dot' });
  function keyOf(y, x) {
    return (y % 2 === 0 ? 'h ' : 'v ') + Math.floor(y / 2) + ' ' + Math.floor(x / 2);
  }
  var slider = document.getElementById('slider');
  slider.max = data.steps.length;
  var current = 0;
  function show(k) {
    k = Math.max(0, Math.min(data.steps.length, k));
    current = k;
    slider.value = k;
    var state = {};
    for (var i = 0; i < k; i++) {
      var d = data.steps[i].decided;
      for (var j = 0; j < d.length; j++) state[keyOf(d[j][0], d[j][1])] = d[j][2];
    }
    var fresh = {};
    if (k > 0) {
      var d = data.steps[k - 1].decided;
      for (var j = 0; j < d.length; j++) fresh[keyOf(d[j][0], d[j][1])] = true;
    }
    for (var key in edges) {
      var s = state[key];
      var cls = 'edge ' + (s === 1 ? 'line' : s === 2 ? 'cross' : 'unknown');
      if (fresh[key]) cls += ' new';
      edges[key].setAttribute('class', cls);
    }
    document.getElementById('counter').textContent = 'step ' + k + ' of ' + data.steps.length;
    var text = document.getElementById('step');
    var rule = document.getElementById('rule');
    rule.innerHTML = '';
    if (k === 0) {
      text.textContent = 'The puzzle. Step through with the slider or the arrow keys.';
    } else {
      var st = data.steps[k - 1];
      text.textContent = k + '. ' + st.title + ': ' + st.edges;
      if (st.when !== null) {
        var a = document.createElement('pre'); a.textContent = 'when\n' + st.when;
        var b = document.createElement('pre'); b.textContent = 'then\n' + st.then;
        rule.appendChild(a); rule.appendChild(b);
      }
    }
  }
  slider.addEventListener('input', function () { show(+slider.value); });
  document.getElementById('prev').addEventListener('click', function () { show(current - 1); });
  document.getElementById('next').addEventListener('click', function () { show(current + 1); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') show(current - 1);
    else if (e.key === 'ArrowRight') show(current + 1);
    else if (e.key === 'Home') show(0);
    else if (e.key === 'End') show(data.steps.length);
    else return;
    e.preventDefault();
  });
  document.getElementById('outcome').textContent = data.outcome + ' in ' + data.steps.length + ' steps';
  show(0);
  if (location.hash === '#end') {
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'End' }));
  } else if (location.hash === '#step') {
    for (var i = 0; i < data.steps.length; i++)
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
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
