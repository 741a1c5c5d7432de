//! The page around the sections: one self-contained HTML file (styles inline, plots as
//! inline SVG, no script, no external resource), light or dark by the reader's setting
//! (CSS only), printable; and the small pieces sections share (escaping, IRI links,
//! figures with their text alternative).

use std::fmt::Write as _;

use super::chart::{Chart, HeatMap};

const STYLE: &str = r#"
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #fdfdfd; --muted: #5a5a5a; --rule: #d0d0d0; --link: #0b57a4; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e6e6; --bg: #16181c; --muted: #a8a8a8; --rule: #3a3d44; --link: #8ab4f8; } }
body { font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); max-width: 70rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; border-bottom: 1px solid var(--rule); padding-bottom: .2rem; margin-top: 2rem; } h3 { font-size: 1.05rem; }
a { color: var(--link); }
table { border-collapse: collapse; margin: .5rem 0; font-size: .9rem; }
th, td { border: 1px solid var(--rule); padding: .2rem .5rem; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font-size: .9em; word-break: break-word; }
.plots { display: flex; flex-wrap: wrap; gap: 1rem; }
figure.plot { margin: 0; max-width: 560px; }
figure.plot svg { display: block; width: 100%; height: auto; background: #fff; border: 1px solid var(--rule); border-radius: 4px; }
figcaption { color: var(--muted); font-size: .85rem; }
details { margin: .3rem 0; } summary { cursor: pointer; color: var(--muted); }
ul.tree { list-style: none; padding-left: 1.2rem; border-left: 1px dotted var(--rule); }
.muted { color: var(--muted); }
@media print { body { max-width: none; } details { display: block; } figure.plot { break-inside: avoid; } a { color: inherit; } }
"#;

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
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

/// An individual's IRI: a link when it is http(s), plain text otherwise.
pub fn iri(s: &str) -> String {
    if s.starts_with("http://") || s.starts_with("https://") {
        format!("<a href=\"{0}\"><code>{0}</code></a>", esc(s))
    } else {
        format!("<code>{}</code>", esc(s))
    }
}

/// A number for a table cell (4 decimals; integers as they are; none as a dash).
pub fn num(v: Option<f64>) -> String {
    match v {
        Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x:.0}"),
        Some(x) => format!("{x:.4}"),
        None => "–".to_owned(),
    }
}

/// The whole document: `title`, then the sections' HTML in order.
pub fn page(title: &str, sections: &[String]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"oxilearn {}\">\n<title>{}</title>\n<style>{STYLE}</style>\n\
         </head>\n<body>\n<h1>{}</h1>\n",
        env!("CARGO_PKG_VERSION"),
        esc(title),
        esc(title)
    );
    for s in sections {
        out.push_str(s);
        out.push('\n');
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// Makes plotters' `<svg>` an image with an accessible name: `role="img"` and a `<title>`.
fn labelled(svg: &str, id: &str, title: &str) -> String {
    let Some(open_end) = svg.find('>') else {
        return svg.to_owned();
    };
    let (open, rest) = svg.split_at(open_end);
    format!(
        "{open} role=\"img\" aria-labelledby=\"{id}-title\"><title id=\"{id}-title\">{}</title>{}",
        esc(title),
        &rest[1..]
    )
}

/// A chart as a figure: the SVG, a caption, and its numbers in a table (the text
/// alternative, folded away on screen).
pub fn figure(chart: &Chart, caption: &str) -> anyhow::Result<String> {
    let svg = labelled(&chart.svg()?, &chart.id, &chart.title);
    let mut table = format!(
        "<table><tr><th>series</th><th class=\"num\">{}</th><th class=\"num\">{}</th></tr>",
        esc(&chart.x_label),
        esc(&chart.y_label)
    );
    for s in &chart.series {
        for &(x, y) in &s.points {
            let _ = write!(
                table,
                "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                esc(&s.name),
                num(Some(x)),
                num(Some(y))
            );
        }
    }
    table.push_str("</table>");
    Ok(wrap(&chart.id, &svg, caption, &table))
}

/// A heat map as a figure, its cells as a table.
pub fn heat_figure(map: &HeatMap, caption: &str) -> anyhow::Result<String> {
    let svg = labelled(&map.svg()?, &map.id, &map.title);
    let mut table = format!(
        "<table><tr><th>{} \\ {}</th>",
        esc(&map.row_label),
        esc(&map.column_label)
    );
    for l in &map.labels {
        let _ = write!(table, "<th class=\"num\">{}</th>", esc(l));
    }
    table.push_str("</tr>");
    for (l, row) in map.labels.iter().zip(&map.cells) {
        let _ = write!(table, "<tr><th>{}</th>", esc(l));
        for v in row {
            let _ = write!(table, "<td class=\"num\">{v}</td>");
        }
        table.push_str("</tr>");
    }
    table.push_str("</table>");
    Ok(wrap(&map.id, &svg, caption, &table))
}

fn wrap(id: &str, svg: &str, caption: &str, table: &str) -> String {
    format!(
        "<figure class=\"plot\" id=\"{0}\" data-plot=\"{0}\">{svg}<figcaption>{1}</figcaption>\
         <details><summary>Data</summary>{table}</details></figure>",
        esc(id),
        esc(caption)
    )
}
