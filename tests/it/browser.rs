//! A headless Chromium driven over the DevTools protocol, for the pages a person uses (Debian's `chromium`, as the
//! dashboard test uses it): open a page, run script in it, wait for what a person would wait for, resize it, take a
//! screenshot, and check it with axe-core (`tests/a11y`, installed by `npm ci`) and a layout check. Without chromium
//! the tests say so loudly and pass, but fail under `FOMENTO_REQUIRE_BROWSER=1` (as `.ci/run` sets it).

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::BufRead;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A running headless browser with one page.
pub struct Browser {
    child: std::process::Child,
    socket: Socket,
    next_id: u64,
    profile: std::path::PathBuf,
}

/// Whether a missing browser (or axe-core) fails the test instead of skipping it.
pub fn required() -> bool {
    std::env::var("FOMENTO_REQUIRE_BROWSER").is_ok_and(|v| v == "1")
}

/// The browser's program, if one is installed.
fn program() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"].into_iter().find(|b| {
        std::process::Command::new(b)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

impl Browser {
    /// Starts a headless browser asking for pages in `accept_lang`; `None` (said loudly) without one, a failure when
    /// one is required.
    pub async fn launch(accept_lang: &str) -> Option<Browser> {
        let Some(program) = program() else {
            eprintln!("\n*** BROWSER NOT TESTED: chromium is not installed (`.ci/run` installs it). ***\n");
            assert!(!required(), "FOMENTO_REQUIRE_BROWSER=1 and no chromium");
            return None;
        };
        let profile = std::env::temp_dir().join(format!("fomento-chromium-{}", uuid::Uuid::new_v4()));
        let mut child = std::process::Command::new(program)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--remote-debugging-port=0",
                "--hide-scrollbars",
                "--window-size=1400,1000",
            ])
            .arg(format!("--accept-lang={accept_lang}"))
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stderr(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("the browser starts");
        let stderr = child.stderr.take().expect("stderr");
        // Its output is read on a thread of its own to the end (so it never blocks on a full pipe); the line saying
        // where its DevTools listen is handed over.
        let (tx, rx) = tokio::sync::oneshot::channel();
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.split("DevTools listening on ").nth(1)
                    && let Some(tx) = tx.take()
                {
                    let _ = tx.send(url.trim().to_owned());
                }
            }
        });
        let ws = tokio::time::timeout(Duration::from_secs(30), rx)
            .await
            .ok()
            .and_then(Result::ok)
            .expect("the browser says where its DevTools listen");
        let port = ws
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .expect("host and port")
            .to_owned();
        let targets: Value = reqwest::get(format!("http://{port}/json/list"))
            .await
            .expect("targets")
            .json()
            .await
            .expect("json");
        let page = targets
            .as_array()
            .and_then(|t| t.iter().find(|t| t["type"] == "page"))
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .expect("a page")
            .to_owned();
        let (socket, _) = tokio_tungstenite::connect_async(page).await.expect("the page's socket");
        let mut b = Browser {
            child,
            socket,
            next_id: 0,
            profile,
        };
        b.call("Page.enable", json!({})).await;
        b.call("Runtime.enable", json!({})).await;
        Some(b)
    }

    /// Sends a DevTools command and waits for its answer (events in between are let go).
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.socket
            .send(Message::text(
                json!({ "id": id, "method": method, "params": params }).to_string(),
            ))
            .await
            .expect("send");
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(60), self.socket.next())
                .await
                .unwrap_or_else(|_| panic!("{method}: no answer in 60 s"))
                .expect("open")
                .expect("a frame");
            if let Message::Text(t) = frame {
                let v: Value = serde_json::from_str(&t).expect("json");
                if v["id"] == id {
                    return v;
                }
            }
        }
    }

    /// Opens `url` and waits until it has loaded.
    pub async fn goto(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url })).await;
        self.wait_for(
            &format!(
                "location.href.startsWith({}) && document.readyState === 'complete'",
                json!(url)
            ),
            "the page to load",
        )
        .await;
    }

    /// Evaluates `expression` in the page (awaiting a promise) and returns its value; `Err` with the exception.
    pub async fn try_eval(&mut self, expression: &str) -> Result<Value, String> {
        let v = self
            .call(
                "Runtime.evaluate",
                json!({ "expression": expression, "awaitPromise": true, "returnByValue": true }),
            )
            .await;
        if let Some(e) = v["result"].get("exceptionDetails") {
            return Err(e.to_string());
        }
        if let Some(e) = v.get("error") {
            return Err(e.to_string());
        }
        Ok(v["result"]["result"]["value"].clone())
    }

    /// Evaluates `expression`, which must not throw.
    pub async fn eval(&mut self, expression: &str) -> Value {
        self.try_eval(expression)
            .await
            .unwrap_or_else(|e| panic!("{expression}: {e}"))
    }

    /// Waits (up to 30 s) until `condition` is true in the page, as a person waits for what they expect to see.
    pub async fn wait_for(&mut self, condition: &str, what: &str) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            if self.try_eval(condition).await.is_ok_and(|v| v == true) {
                return;
            }
            if tokio::time::Instant::now() > deadline {
                let url = self.try_eval("location.href").await.unwrap_or_default();
                let text = self
                    .try_eval("document.body && document.body.innerText")
                    .await
                    .unwrap_or_default();
                panic!("waited 30 s for {what} ({condition}) at {url}: {text}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The page's visible text.
    pub async fn text(&mut self) -> String {
        self.eval("document.body.innerText")
            .await
            .as_str()
            .unwrap_or("")
            .to_owned()
    }

    /// Lays the page out at `width` CSS pixels (a phone's below 500 px), `height` tall.
    pub async fn viewport(&mut self, width: u32, height: u32) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500 }),
        )
        .await;
        // Let the page lay itself out again.
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    /// A PNG of what the viewport shows, written to `path`.
    pub async fn screenshot(&mut self, path: &std::path::Path) {
        use base64::Engine;
        let v = self.call("Page.captureScreenshot", json!({ "format": "png" })).await;
        let data = v["result"]["data"].as_str().expect("png data");
        let png = base64::engine::general_purpose::STANDARD.decode(data).expect("base64");
        std::fs::write(path, png).expect("write the screenshot");
    }

    /// What overflows the page's width (but inside a scrolling box) and the text set under 14 px, at the current
    /// width: both empty on a page that reads well.
    pub async fn layout_problems(&mut self) -> Value {
        self.eval(
            r#"(() => {
                const width = document.documentElement.clientWidth;
                const overflow = [];
                if (document.documentElement.scrollWidth > width) overflow.push('the page: ' + document.documentElement.scrollWidth + ' > ' + width);
                const small = [];
                for (const el of document.body.querySelectorAll('*')) {
                    const style = getComputedStyle(el);
                    if (style.display === 'none' || style.visibility === 'hidden') continue;
                    const r = el.getBoundingClientRect();
                    if (r.width > 0 && r.right > width + 1 && r.left >= 0 && !el.closest('.scroll')) overflow.push(el.tagName + '#' + el.id + '.' + el.className + ' right ' + r.right);
                    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
                    if (own && r.width > 0 && parseFloat(style.fontSize) < 14) small.push(el.tagName + '.' + el.className + ' ' + style.fontSize + ': ' + el.textContent.trim().slice(0, 40));
                }
                return { overflow, small };
            })()"#,
        )
        .await
    }

    /// The serious and critical violations axe-core finds on the page (`None` when axe-core is not installed and
    /// not required).
    pub async fn axe(&mut self) -> Option<Vec<String>> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("a11y/node_modules/axe-core/axe.min.js");
        let Ok(source) = std::fs::read_to_string(&path) else {
            eprintln!(
                "\n*** ACCESSIBILITY NOT CHECKED: {} is missing (`cd tests/a11y && npm ci`). ***\n",
                path.display()
            );
            assert!(
                !required(),
                "FOMENTO_REQUIRE_BROWSER=1 and no axe-core at {}",
                path.display()
            );
            return None;
        };
        if self.eval("typeof window.axe").await != "object" {
            self.eval(&format!("{source};\ntrue")).await;
        }
        let found = self
            .eval(
                "axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations
                    .filter(v => v.impact === 'serious' || v.impact === 'critical')
                    .map(v => v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.map(n => n.target.join(' ')).join(', ')))",
            )
            .await;
        Some(
            found
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
                .unwrap_or_default(),
        )
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
