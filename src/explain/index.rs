//! The index page of `explain --out-dir`: one link per explanation page written, with its puzzle's headline.

use crate::format::svg::escape;
use std::fmt::Write as _;

/// One explanation page: its file name (relative to the index) and its puzzle's headline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The page's file name, `3.html`.
    pub file: String,
    /// `puzzle 3 (file.in, 5x5): solved, the only answer`.
    pub headline: String,
}

/// The index page listing `entries` in order.
pub fn render(entries: &[Entry]) -> String {
    let mut page = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>slink explanations</title>\n\
         <style>body{font-family:sans-serif;margin:2em}li{margin:.3em 0}</style>\n\
         </head>\n<body>\n<h1>slink explanations</h1>\n",
    );
    let pages = if entries.len() == 1 { "page" } else { "pages" };
    writeln!(
        page,
        "<p>{} {pages}, one per puzzle:</p>\n<ol>",
        entries.len()
    )
    .unwrap();
    for entry in entries {
        writeln!(
            page,
            "<li><a href=\"{}\">{}</a></li>",
            escape(&entry.file),
            escape(&entry.headline)
        )
        .unwrap();
    }
    page.push_str("</ol>\n</body>\n</html>\n");
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headlines_are_escaped_and_linked_in_order() {
        let page = render(&[
            Entry {
                file: "1.html".into(),
                headline: "puzzle 1 (<a&b>.in, 2x2): solved".into(),
            },
            Entry {
                file: "2.html".into(),
                headline: "puzzle 2 (x.in, 1x1): stuck".into(),
            },
        ]);
        assert!(page.contains("<a href=\"1.html\">puzzle 1 (&lt;a&amp;b&gt;.in, 2x2): solved</a>"));
        assert!(page.find("1.html").unwrap() < page.find("2.html").unwrap());
        assert!(page.contains("2 pages"));
    }
}
