//! A static web server for a directory of built HTML: how `cargo xtask serve`
//! shows the classroom bundle's book (`book-html/`) on a lab machine that has
//! no mdBook and no network to install it. Plain HTTP/1.1 over the standard
//! library's `TcpListener`, on localhost only, one request at a time (a
//! book's pages and their few assets are small files), every response closed
//! after it is sent.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use crate::cmd::{Result, banner};

/// How long a connection may take to send its request.
const READ_TIMEOUT: Duration = Duration::from_secs(5);

/// Serves `dir` at `http://localhost:<port>/` until the process is stopped
/// (Ctrl-C). With `open`, asks the desktop to open the address in a
/// browser.
pub fn serve(dir: &Path, port: u16, open: bool) -> Result {
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("cannot listen on localhost:{port}: {e}"))?;
    let url = format!("http://localhost:{port}/");
    banner(&format!(
        "serving the built book at {url} (Ctrl-C stops), from {}",
        dir.display()
    ));
    if open {
        open_browser(&url);
    }
    serve_on(&listener, dir, None);
    Ok(())
}

/// Answers requests on `listener` from the files under `dir`: all of them,
/// or the first `count`. A connection that fails is dropped; the server
/// goes on.
pub fn serve_on(listener: &TcpListener, dir: &Path, count: Option<usize>) {
    for (n, stream) in listener.incoming().enumerate() {
        if let Ok(stream) = stream {
            // A client that hangs up early costs only its own response.
            let _ = answer(stream, dir);
        }
        if count.is_some_and(|count| n + 1 >= count) {
            return;
        }
    }
}

/// Reads one request from `stream` and sends the file it names.
fn answer(mut stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    let mut request = String::new();
    let mut reader = BufReader::new(&stream);
    reader.read_line(&mut request)?;
    // The headers: read to the blank line, and ignored.
    let mut line = String::new();
    while reader.read_line(&mut line)? > 2 {
        line.clear();
    }
    let mut words = request.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or("/"));
    let head_only = method == "HEAD";
    if method != "GET" && !head_only {
        return respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"",
            false,
        );
    }
    match file_for(dir, target).and_then(|file| Some((std::fs::read(&file).ok()?, file))) {
        Some((body, file)) => respond(&mut stream, "200 OK", content_type(&file), &body, head_only),
        None => {
            let body = std::fs::read(dir.join("404.html")).unwrap_or_default();
            respond(
                &mut stream,
                "404 Not Found",
                "text/html; charset=utf-8",
                &body,
                head_only,
            )
        }
    }
}

fn respond(
    stream: &mut TcpStream,
    status: &str,
    kind: &str,
    body: &[u8],
    head_only: bool,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(body)?;
    }
    stream.flush()
}

/// The file under `dir` that a request's target names: its path, without
/// query or fragment, percent-decoded; a directory's `index.html`. None for
/// a path that leaves `dir` or names no file.
fn file_for(dir: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let path = percent_decode(path)?;
    let relative = Path::new(path.trim_start_matches('/'));
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None; // `..`, a root, a prefix: outside the book
    }
    let mut file = dir.join(relative);
    if file.is_dir() {
        file = file.join("index.html");
    }
    file.is_file().then_some(file)
}

/// `%20` and its kind decoded; None if a `%` is not followed by two hex
/// digits or the result is not UTF-8.
fn percent_decode(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The content type of a built book's file, by its extension.
fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|x| x.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "pdf" => "application/pdf",
        "txt" | "md" | "rs" | "toml" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Asks the desktop to open `url` (`xdg-open` on Linux, `open` on macOS).
/// Without one, the address printed above is enough.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    match std::process::Command::new(opener).arg(url).spawn() {
        // Not waited for: the opener may live as long as the browser does.
        Ok(_child) => {}
        Err(e) => println!("({opener} {url}: {e}; open the address yourself)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_request_names_a_file_inside_the_book_only() {
        // Removed when dropped, a panicking test too.
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().to_path_buf();
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("index.html"), "home").unwrap();
        std::fs::write(dir.join("sub/a b.html"), "page").unwrap();
        assert_eq!(file_for(&dir, "/"), Some(dir.join("index.html")));
        assert_eq!(
            file_for(&dir, "/index.html?x=1#top"),
            Some(dir.join("index.html"))
        );
        assert_eq!(
            file_for(&dir, "/sub/a%20b.html"),
            Some(dir.join("sub/a b.html"))
        );
        assert_eq!(file_for(&dir, "/sub"), None, "no index.html there");
        assert_eq!(file_for(&dir, "/../etc/passwd"), None);
        assert_eq!(file_for(&dir, "/sub/%2e%2e/%2e%2e/x"), None);
        assert_eq!(file_for(&dir, "/%zz"), None);
    }

    #[test]
    fn serves_a_page_and_answers_404_for_a_missing_one() {
        // Removed when dropped, a panicking test too.
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().to_path_buf();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<title>the book</title>").unwrap();
        std::fs::write(dir.join("404.html"), "lost").unwrap();
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let get = |path: &str| {
            let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
            write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n").unwrap();
            let mut text = String::new();
            stream.read_to_string(&mut text).unwrap();
            text
        };
        let (page, missing) = std::thread::scope(|s| {
            let server = s.spawn(|| serve_on(&listener, &dir, Some(2)));
            let answers = (get("/"), get("/nowhere.html"));
            server.join().unwrap();
            answers
        });
        assert!(page.starts_with("HTTP/1.1 200 OK\r\n"), "{page}");
        assert!(page.contains("Content-Type: text/html"), "{page}");
        assert!(page.ends_with("<title>the book</title>"), "{page}");
        assert!(
            missing.starts_with("HTTP/1.1 404 Not Found\r\n"),
            "{missing}"
        );
        assert!(missing.ends_with("lost"), "{missing}");
    }
}
