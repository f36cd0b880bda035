//! Identities besides API keys (issue 15, item 1): JWTs from an identity provider, verified against its JWKS, and
//! the browsers' sign-in page with its session cookie. Issue 40: sessions kept by the server (an opaque id, ended at
//! sign-out and when its key is revoked), same-origin checks on the cookie's writes and on the sign-in form, and
//! revocation that reaches every process and open subscription at once.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::helpers::{Backend, TestApp, client_with, fresh_database, on_each_backend, on_each_backend_with, start};
use fomento_api::startup::Settings;
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::{Value, json};

/// The identity provider's signing key (Ed25519, PKCS#8), and its public half as published in the JWKS.
const PROVIDER_KEY: &str =
    "302e020100300506032b657004220420db686e52a0a7a439df5e052b25ff26d6a5f6dcff65b7473e34ce9141023e23cf";
const PROVIDER_PUBLIC: &str = "UcDOmVnwdE-z3d6geo6BTnSn07TKYxN7vdfVdfQeJuo";
/// Another key, the provider's in name only.
const FORGED_KEY: &str =
    "302e020100300506032b65700422042059f800862f1c3377ef6b14caa29f9edb51d3c672add23981a0b0f0c36be60267";

fn jwks_path() -> std::path::PathBuf {
    std::env::temp_dir().join("fomento-test-provider-jwks.json")
}

fn with_provider(s: &mut Settings) {
    let jwks = json!({ "keys": [{ "kty": "OKP", "crv": "Ed25519", "x": PROVIDER_PUBLIC, "kid": "k1", "alg": "EdDSA", "use": "sig" }] });
    std::fs::write(jwks_path(), jwks.to_string()).expect("the JWKS file");
    s.tokens = Some(service::tokens::TokenSettings {
        jwks: jwks_path().display().to_string(),
        issuer: Some("https://idp.example.gov.br".into()),
        audience: Some("fomento".into()),
        leeway: 60,
        role_claim: "fomento_role".into(),
        bank_claim: "fomento_bank".into(),
    });
}

fn token(key_hex: &str, claims: Value) -> String {
    let key = EncodingKey::from_ed_der(&hex::decode(key_hex).expect("hex"));
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = Some("k1".into());
    encode(&header, &claims, &key).expect("a token")
}

fn claims(sub: &str, role: Value, extra: Value) -> Value {
    let now = chrono::Utc::now().timestamp();
    let mut c = json!({
        "sub": sub, "iss": "https://idp.example.gov.br", "aud": "fomento", "iat": now, "exp": now + 600,
        "fomento_role": role,
    });
    if let (Some(c), Some(e)) = (c.as_object_mut(), extra.as_object()) {
        c.extend(e.clone());
    }
    c
}

async fn ask(app: &TestApp, bearer: &str, query: &str) -> (u16, Value) {
    ask_at(&app.base, bearer, query).await
}

/// [`ask`] of the server at `base`.
async fn ask_at(base: &str, bearer: &str, query: &str) -> (u16, Value) {
    let r = client_with(bearer)
        .post(format!("{base}/graphql"))
        .header("accept-language", "en")
        .json(&json!({ "query": query }))
        .send()
        .await
        .expect("answer");
    (r.status().as_u16(), r.json().await.expect("json"))
}

/// A browser's GET of `url` carrying `cookie` (`name=value`).
async fn get_with_cookie(browser: &reqwest::Client, url: &str, cookie: &str) -> reqwest::Response {
    browser.get(url).header("cookie", cookie).send().await.expect("answer")
}

fn code(body: &Value) -> &str {
    body["errors"][0]["extensions"]["code"].as_str().unwrap_or("OK")
}

#[tokio::test]
async fn a_providers_token_is_a_caller_with_the_role_and_bank_its_claims_name() {
    on_each_backend_with(true, with_provider, |app| async move {
        let count = "{ fcoCartas(first: 1) { totalCount } }";
        let (_, all) = ask(&app, &app.key, count).await;
        let all = all["data"]["fcoCartas"]["totalCount"].as_i64().expect("a count");
        // An MDA analyst (roles as a list; the first known one counts).
        let mda = token(
            PROVIDER_KEY,
            claims("ana@mda.gov.br", json!(["viewer", "mda"]), json!({})),
        );
        let (status, body) = ask(&app, &mda, count).await;
        assert_eq!((status, code(&body)), (200, "OK"), "{body}");
        assert_eq!(body["data"]["fcoCartas"]["totalCount"], all);
        let (_, body) = ask(
            &app,
            &mda,
            "mutation { addNonBusinessDay(day: \"2026-12-24\", reason: \"x\") { day } }",
        )
        .await;
        assert_eq!(code(&body), "FORBIDDEN", "an MDA token does not administer: {body}");
        // A bank's token sees its own bank only.
        let bank = token(
            PROVIDER_KEY,
            claims("op@sicredi", json!("bank"), json!({ "fomento_bank": "sicredi" })),
        );
        let (_, body) = ask(&app, &bank, count).await;
        let own = body["data"]["fcoCartas"]["totalCount"].as_i64().expect("a count");
        assert!(own > 0 && own < all, "{own} of {all}");
        // Who did what is in the audit log, by the token's subject.
        let lines = service::audit::list(&app.db, &service::Caller::System, None, 50)
            .await
            .expect("audit");
        assert!(
            lines.iter().any(|l| l.actor == "ana@mda.gov.br (mda token)"),
            "the subject in the audit"
        );
        // Anything wrong with a token makes it no credential at all.
        let now = chrono::Utc::now().timestamp();
        for (why, bad) in [
            (
                "expired",
                token(PROVIDER_KEY, claims("a", json!("mda"), json!({ "exp": now - 3600 }))),
            ),
            (
                "another issuer",
                token(
                    PROVIDER_KEY,
                    claims("a", json!("mda"), json!({ "iss": "https://evil.example" })),
                ),
            ),
            (
                "another audience",
                token(PROVIDER_KEY, claims("a", json!("mda"), json!({ "aud": "other-app" }))),
            ),
            (
                "signed by another key",
                token(FORGED_KEY, claims("a", json!("admin"), json!({}))),
            ),
            (
                "no known role",
                token(PROVIDER_KEY, claims("a", json!("superuser"), json!({}))),
            ),
            (
                "a bank role without its bank",
                token(PROVIDER_KEY, claims("a", json!("bank"), json!({}))),
            ),
            (
                "a bank role with an unknown bank",
                token(
                    PROVIDER_KEY,
                    claims("a", json!("bank"), json!({ "fomento_bank": "NOPE" })),
                ),
            ),
        ] {
            let (status, body) = ask(&app, &bad, count).await;
            assert_eq!((status, code(&body)), (401, "UNAUTHENTICATED"), "{why}: {body}");
        }
        // Within the clock skew, an expiry just past is still good.
        let skew = token(PROVIDER_KEY, claims("a", json!("analyst"), json!({ "exp": now - 30 })));
        assert_eq!(
            ask(&app, &skew, count).await.0,
            200,
            "30 s past exp, within 60 s of skew"
        );
    })
    .await;
}

/// `claims` without the claim `name`.
fn without(mut claims: Value, name: &str) -> Value {
    if let Some(c) = claims.as_object_mut() {
        c.remove(name);
    }
    claims
}

#[tokio::test]
async fn a_configured_issuer_and_audience_must_be_named_and_a_token_not_valid_yet_is_refused() {
    on_each_backend_with(false, with_provider, |app| async move {
        let count = "{ banks(first: 1) { totalCount } }";
        let now = chrono::Utc::now().timestamp();
        let admin = |extra: Value| claims("a", json!("admin"), extra);
        for (why, bad) in [
            ("no audience", without(admin(json!({})), "aud")),
            ("no issuer", without(admin(json!({})), "iss")),
            ("valid an hour from now", admin(json!({ "nbf": now + 3600 }))),
            ("a not-before that is not a time", admin(json!({ "nbf": "soon" }))),
        ] {
            let (status, body) = ask(&app, &token(PROVIDER_KEY, bad), count).await;
            assert_eq!((status, code(&body)), (401, "UNAUTHENTICATED"), "{why}: {body}");
        }
        for (why, good) in [
            ("valid since a minute ago", admin(json!({ "nbf": now - 60 }))),
            (
                "valid in 30 s, within the 60 s of skew",
                admin(json!({ "nbf": now + 30 })),
            ),
        ] {
            let (status, body) = ask(&app, &token(PROVIDER_KEY, good), count).await;
            assert_eq!((status, code(&body)), (200, "OK"), "{why}: {body}");
        }
    })
    .await;
}

fn with_provider_naming_no_audience(s: &mut Settings) {
    with_provider(s);
    if let Some(t) = s.tokens.as_mut() {
        t.audience = None;
        t.issuer = None;
    }
}

#[tokio::test]
async fn without_a_configured_audience_or_issuer_a_token_need_not_name_them() {
    on_each_backend_with(false, with_provider_naming_no_audience, |app| async move {
        let bare = without(without(claims("a", json!("analyst"), json!({})), "aud"), "iss");
        let (status, body) = ask(&app, &token(PROVIDER_KEY, bare), "{ banks(first: 1) { totalCount } }").await;
        assert_eq!((status, code(&body)), (200, "OK"), "{body}");
    })
    .await;
}

#[tokio::test]
async fn a_token_subject_with_a_line_break_cannot_forge_a_line_of_the_audit_log() {
    on_each_backend_with(false, with_provider, |app| async move {
        let forged = "ana\\n    99  2026-01-01 00:00:00  OK  tests (admin key 1)  mutation createBank";
        let subject = forged.replace("\\n", "\n");
        let mda = token(PROVIDER_KEY, claims(&subject, json!("mda"), json!({})));
        let (_, body) = ask(
            &app,
            &mda,
            "mutation { addNonBusinessDay(day: \"2026-12-24\", reason: \"x\") { day } }",
        )
        .await;
        assert_eq!(code(&body), "FORBIDDEN", "{body}");
        let line = service::audit::list(&app.db, &service::Caller::System, None, 20)
            .await
            .expect("audit")
            .into_iter()
            .find(|l| l.actor.starts_with("ana"))
            .expect("the refusal is audited");
        assert!(line.actor.contains('\n'), "stored as the provider signed it: {line:?}");
        let printed = fomento_api::commands::audit_line(line);
        assert_eq!(printed.lines().count(), 1, "{printed}");
        assert!(printed.contains(forged), "the subject escaped, readable: {printed}");
        let csv = client_with(&app.key)
            .get(format!("{}/exports/audit.csv", app.base))
            .send()
            .await
            .expect("answer")
            .text()
            .await
            .expect("text");
        assert!(!csv.contains(&subject) && csv.contains(forged), "{csv}");
    })
    .await;
}

#[tokio::test]
async fn a_browser_signs_in_with_a_key_and_keeps_it_in_a_strict_http_only_cookie() {
    on_each_backend(true, |app| async move {
        let browser = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("a client");
        let url = |p: &str| format!("{}{p}", app.base);
        // A page asked for without credentials: to the sign-in form, and back after.
        let r = browser
            .get(url("/dashboard?asOf=2026-04-15"))
            .header("accept", "text/html")
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 303);
        let location = r.headers()["location"].to_str().expect("location").to_owned();
        assert_eq!(location, "/sign-in?next=/dashboard%3FasOf%3D2026-04-15");
        let form = browser
            .get(url(&location))
            .send()
            .await
            .expect("answer")
            .text()
            .await
            .expect("html");
        assert!(
            form.contains(r#"name="next" value="/dashboard?asOf=2026-04-15""#),
            "{form}"
        );
        // A wrong key: the form again, saying so.
        let r = browser
            .post(url("/sign-in"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("key=fmt_nope&next=%2Fdashboard")
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 401);
        assert!(r.text().await.expect("html").contains("inválido"));
        // The analyst's key: a cookie only this site gets, and on to the page.
        let key = app.key_of("analyst", None).await;
        let r = browser
            .post(url("/sign-in"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("key={key}&next=%2Fdashboard"))
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 303);
        assert_eq!(r.headers()["location"], "/dashboard");
        let cookie = r.headers()["set-cookie"].to_str().expect("cookie").to_owned();
        for part in ["fomento_session=", "HttpOnly", "SameSite=Strict", "Path=/"] {
            assert!(cookie.contains(part), "{cookie}");
        }
        let session = cookie.split(';').next().expect("name=value").to_owned();
        assert!(
            !session.contains(&key) && !session.contains("fmt_"),
            "the cookie holds a session id, never the key: {session}"
        );
        let page = get_with_cookie(&browser, &url("/dashboard"), &session).await;
        assert_eq!(page.status().as_u16(), 200);
        assert!(
            page.text().await.expect("html").contains("<svg"),
            "the page with its charts"
        );
        let csv = get_with_cookie(&browser, &url("/exports/flags.csv"), &session).await;
        assert_eq!(
            csv.status().as_u16(),
            200,
            "the page's export links work with the cookie"
        );
        let (status, body) = {
            let r = browser
                .post(url("/graphql"))
                .header("cookie", &session)
                .json(&json!({ "query": "{ banks(first: 1) { totalCount } }" }))
                .send()
                .await
                .expect("answer");
            (r.status().as_u16(), r.json::<Value>().await.expect("json"))
        };
        assert_eq!(
            (status, code(&body)),
            (200, "OK"),
            "GraphiQL's requests carry the cookie: {body}"
        );
        // Never sent on to another site; signing out forgets the cookie.
        let r = browser
            .post(url("/sign-in"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("key={key}&next=%2F%2Fevil.example.com%2F"))
            .send()
            .await
            .expect("answer");
        assert_eq!(r.headers()["location"], "/dashboard");
        let r = browser.post(url("/sign-out")).send().await.expect("answer");
        assert!(
            r.headers()["set-cookie"]
                .to_str()
                .expect("cookie")
                .contains("Max-Age=0")
        );
    })
    .await;
}

/// The issuer URL of the test's OpenID Connect provider (the settings' tweak is a plain function).
static PROVIDER: std::sync::OnceLock<String> = std::sync::OnceLock::new();

fn with_oidc(s: &mut Settings) {
    s.oidc = Some(service::oidc::OidcSettings {
        issuer: PROVIDER.get().cloned().unwrap_or_default(),
        client_id: "fomento-web".into(),
        client_secret: "s3cret".into(),
        redirect_url: "http://fomento.test/sign-in/callback".into(),
        role_claim: "fomento_role".into(),
        bank_claim: "fomento_bank".into(),
        leeway: 60,
    });
}

/// A tiny OpenID Connect provider: discovery, keys, an authorization endpoint that signs Maria in at once, and a
/// token endpoint that answers a code with an ID token carrying the code's nonce.
async fn provider() -> String {
    use axum::{Router, extract::Query, response::Redirect, routing::get, routing::post};
    use std::collections::HashMap;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let base = format!("http://127.0.0.1:{}", listener.local_addr().expect("addr").port());
    let issuer = base.clone();
    let app = Router::new()
        .route(
            "/.well-known/openid-configuration",
            get({
                let base = base.clone();
                move || async move {
                    axum::Json(json!({ "issuer": base, "authorization_endpoint": format!("{base}/authorize"),
                        "token_endpoint": format!("{base}/token"), "jwks_uri": format!("{base}/jwks") }))
                }
            }),
        )
        .route(
            "/jwks",
            get(|| async {
                axum::Json(json!({ "keys": [{ "kty": "OKP", "crv": "Ed25519", "x": PROVIDER_PUBLIC, "kid": "k1", "alg": "EdDSA" }] }))
            }),
        )
        .route(
            "/authorize",
            get(|Query(q): Query<HashMap<String, String>>| async move {
                assert_eq!(q.get("client_id").map(String::as_str), Some("fomento-web"));
                let code = format!("code-{}", q.get("nonce").cloned().unwrap_or_default());
                let back = q.get("redirect_uri").cloned().unwrap_or_default();
                Redirect::to(&format!("{back}?code={code}&state={}", q.get("state").cloned().unwrap_or_default()))
            }),
        )
        .route(
            "/token",
            post(move |body: String| {
                let issuer = issuer.clone();
                async move {
                    let form: HashMap<String, String> = body
                        .split('&')
                        .filter_map(|p| p.split_once('='))
                        .map(|(k, v)| (k.to_owned(), v.to_owned()))
                        .collect();
                    assert_eq!(form.get("client_secret").map(String::as_str), Some("s3cret"));
                    let nonce = form.get("code").and_then(|c| c.strip_prefix("code-")).unwrap_or("").to_owned();
                    let mut claims = claims("maria@sedec.mt.gov.br", json!("council"), json!({ "nonce": nonce }));
                    claims["iss"] = json!(issuer);
                    claims["aud"] = json!("fomento-web");
                    axum::Json(json!({ "id_token": token(PROVIDER_KEY, claims), "token_type": "Bearer" }))
                }
            }),
        );
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    base
}

#[tokio::test]
async fn a_browser_signs_in_through_the_openid_connect_provider() {
    let base = provider().await;
    PROVIDER.get_or_init(|| base.clone());
    on_each_backend_with(true, with_oidc, |app| async move {
        let browser = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("a client");
        let form = browser
            .get(format!("{}/sign-in", app.base))
            .send()
            .await
            .expect("answer")
            .text()
            .await
            .expect("html");
        assert!(
            form.contains("/sign-in/oidc?next=/dashboard"),
            "the form offers the provider: {form}"
        );
        // To the provider, with this sign-in's state in a cookie that comes back on its redirect.
        let start = browser
            .get(format!("{}/sign-in/oidc?next=/dashboard", app.base))
            .send()
            .await
            .expect("answer");
        assert_eq!(start.status().as_u16(), 303);
        let flow = start.headers()["set-cookie"].to_str().expect("cookie").to_owned();
        assert!(flow.contains("SameSite=Lax") && flow.contains("HttpOnly"), "{flow}");
        let flow = flow.split(';').next().expect("name=value").to_owned();
        let at_provider = start.headers()["location"].to_str().expect("location").to_owned();
        assert!(
            at_provider.starts_with(&format!("{}/authorize?", PROVIDER.get().expect("provider"))),
            "{at_provider}"
        );
        let back = browser.get(&at_provider).send().await.expect("the provider answers");
        let callback = back.headers()["location"].to_str().expect("location").to_owned();
        let callback = callback.replacen("http://fomento.test", &app.base, 1);
        // A state that is not this browser's is refused.
        let forged = get_with_cookie(&browser, &callback.replace("state=", "state=x"), &flow).await;
        assert_eq!(forged.status().as_u16(), 401);
        // Without the flow's cookie (another browser), refused too.
        assert_eq!(
            browser.get(&callback).send().await.expect("answer").status().as_u16(),
            401
        );
        // This browser: signed in, and on to the page.
        let done = get_with_cookie(&browser, &callback, &flow).await;
        assert_eq!(done.status().as_u16(), 200);
        let cookies: Vec<String> = done
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok().map(str::to_owned))
            .collect();
        let session = cookies
            .iter()
            .find(|c| c.starts_with("fomento_session="))
            .expect("the session cookie");
        assert!(
            !session.starts_with("fomento_session=ey"),
            "the cookie holds a session id, never the ID token: {session}"
        );
        assert!(
            session.contains("HttpOnly") && session.contains("SameSite=Strict"),
            "{session}"
        );
        assert!(done.text().await.expect("html").contains(r#"url=/dashboard""#));
        let session = session.split(';').next().expect("name=value").to_owned();
        let page = get_with_cookie(&browser, &format!("{}/dashboard", app.base), &session).await;
        assert_eq!(
            page.status().as_u16(),
            200,
            "the chamber's councillor reads the dashboard"
        );
        let lines = service::audit::list(&app.db, &service::Caller::System, None, 20)
            .await
            .expect("audit");
        assert!(
            lines
                .iter()
                .any(|l| l.action == "sign-in oidc" && l.actor == "maria@sedec.mt.gov.br (council token)"),
            "the sign-in is audited"
        );
        // The same code again, with another flow's nonce: the ID token's nonce is not this sign-in's.
        let other = browser
            .get(format!("{}/sign-in/oidc?next=/dashboard", app.base))
            .send()
            .await
            .expect("answer");
        let other_flow = other.headers()["set-cookie"]
            .to_str()
            .expect("cookie")
            .split(';')
            .next()
            .expect("pair")
            .to_owned();
        let other_state = other_flow
            .split('=')
            .nth(1)
            .and_then(|v| v.split('.').next())
            .expect("state")
            .to_owned();
        let replay = callback
            .split("&state=")
            .next()
            .map(|c| format!("{c}&state={other_state}"))
            .expect("callback");
        let replayed = get_with_cookie(&browser, &replay, &other_flow).await;
        assert_eq!(
            replayed.status().as_u16(),
            401,
            "a code minted for another sign-in's nonce"
        );
    })
    .await;
}

/// A browser without redirects followed (to read each answer's cookie).
fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client")
}

/// Signs `key` in from this site's own form, coming with `cookie` (`name=value`) if any; the new session's
/// `name=value`.
async fn sign_in(app: &TestApp, key: &str, cookie: Option<&str>) -> String {
    let mut req = browser()
        .post(format!("{}/sign-in", app.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("origin", &app.base)
        .body(format!("key={key}&next=%2Fdashboard"));
    if let Some(c) = cookie {
        req = req.header("cookie", c);
    }
    let r = req.send().await.expect("answer");
    assert_eq!(r.status().as_u16(), 303, "signed in");
    r.headers()["set-cookie"]
        .to_str()
        .expect("cookie")
        .split(';')
        .next()
        .expect("name=value")
        .to_owned()
}

/// The status of a query sent with `cookie` alone, as GraphiQL sends it from this site.
async fn with_cookie(app: &TestApp, cookie: &str) -> u16 {
    browser()
        .post(format!("{}/graphql", app.base))
        .header("cookie", cookie)
        .header("origin", &app.base)
        .json(&json!({ "query": "{ banks(first: 1) { totalCount } }" }))
        .send()
        .await
        .expect("answer")
        .status()
        .as_u16()
}

#[tokio::test]
async fn a_session_gets_a_new_id_at_each_sign_in_and_ends_at_sign_out() {
    on_each_backend(false, |app| async move {
        let key = app.key_of("analyst", None).await;
        let first = sign_in(&app, &key, None).await;
        assert_eq!(with_cookie(&app, &first).await, 200);
        // Signing in again from the same browser: a new id, and the old one ends.
        let second = sign_in(&app, &key, Some(&first)).await;
        assert_ne!(first, second, "a new id at every sign-in");
        assert_eq!(
            with_cookie(&app, &first).await,
            401,
            "the old id ends at the new sign-in"
        );
        assert_eq!(with_cookie(&app, &second).await, 200);
        // Signing out ends the session: the same cookie, copied before, no longer works.
        let out = browser()
            .post(format!("{}/sign-out", app.base))
            .header("cookie", &second)
            .header("origin", &app.base)
            .send()
            .await
            .expect("answer");
        assert_eq!(out.status().as_u16(), 303);
        assert!(
            out.headers()["set-cookie"]
                .to_str()
                .expect("cookie")
                .contains("Max-Age=0")
        );
        assert_eq!(
            with_cookie(&app, &second).await,
            401,
            "the cookie is dead after sign-out"
        );
        // The key itself is untouched.
        let (status, _) = ask(&app, &key, "{ banks(first: 1) { totalCount } }").await;
        assert_eq!(status, 200);
        // The database keeps the id's hash only, never the id.
        let id = second.split_once('=').expect("pair").1;
        let rows = <entity::browser_session::Entity as sea_orm::EntityTrait>::find()
            .all(&app.db)
            .await
            .expect("sessions");
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.id_hash != id && r.ended_at.is_some()), "{rows:?}");
    })
    .await;
}

/// A query's outcome through `addNonBusinessDay` in a multipart request (as an HTML form from any site can send
/// without asking first), with the session `cookie` and these extra headers.
async fn multipart_write(app: &TestApp, cookie: &str, day: &str, headers: &[(&str, &str)]) -> (u16, Value) {
    let operations = json!({
        "query": "mutation D($day: Date!) { addNonBusinessDay(day: $day, reason: \"véspera\") { day } }",
        "variables": { "day": day },
    });
    let form = reqwest::multipart::Form::new()
        .text("operations", operations.to_string())
        .text("map", "{}");
    let mut req = browser()
        .post(format!("{}/graphql", app.base))
        .header("cookie", cookie)
        .multipart(form);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let r = req.send().await.expect("answer");
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn is_off(app: &TestApp, day: &str) -> bool {
    let days = app.data("{ nonBusinessDays { day } }", json!({})).await;
    days["nonBusinessDays"]
        .as_array()
        .expect("days")
        .iter()
        .any(|d| d["day"] == day)
}

#[tokio::test]
async fn a_cross_site_write_with_the_session_cookie_is_refused_and_writes_nothing() {
    on_each_backend(false, |app| async move {
        let cookie = sign_in(&app, &app.key, None).await;
        for (why, headers) in [
            ("another site's Origin", vec![("origin", "https://evil.example")]),
            (
                "a sibling site (the cookie is sent: SameSite sees one site)",
                vec![("sec-fetch-site", "same-site"), ("origin", "https://evil.fomento.test")],
            ),
            ("the browser's own word", vec![("sec-fetch-site", "cross-site")]),
            ("an opaque origin", vec![("origin", "null")]),
        ] {
            let (status, body) = multipart_write(&app, &cookie, "2026-12-24", &headers).await;
            assert_eq!(status, 403, "{why}: {body}");
            assert_eq!(code(&body), "CROSS_SITE_REQUEST", "{why}: {body}");
            let message = body["errors"][0]["message"].as_str().unwrap_or("");
            assert!(
                message.contains("outro site"),
                "{why}: a message in Portuguese: {message}"
            );
            assert!(!is_off(&app, "2026-12-24").await, "{why}: nothing written");
        }
        // The bank reports' upload is refused the same way, before reading the file.
        let upload = browser()
            .post(format!("{}/bank-reports", app.base))
            .header("cookie", &cookie)
            .header("origin", "https://evil.example")
            .multipart(reqwest::multipart::Form::new().text("bank", "BB").part(
                "file",
                reqwest::multipart::Part::bytes(vec![1, 2, 3]).file_name("r.xlsx"),
            ))
            .send()
            .await
            .expect("answer");
        assert_eq!(upload.status().as_u16(), 403);
        // The same write from this site's own page works.
        let (status, body) = multipart_write(&app, &cookie, "2026-12-24", &[("origin", app.base.as_str())]).await;
        assert_eq!((status, code(&body)), (200, "OK"), "{body}");
        assert!(is_off(&app, "2026-12-24").await, "written from the same origin");
        let (status, body) = multipart_write(&app, &cookie, "2026-12-31", &[("sec-fetch-site", "same-origin")]).await;
        assert_eq!((status, code(&body)), (200, "OK"), "{body}");
        assert!(is_off(&app, "2026-12-31").await, "written from the same origin");
        // A request with the key in a header is no browser's: another Origin does not matter.
        let r = app
            .post("/graphql")
            .header("origin", "https://other-front-end.example")
            .json(&json!({ "query": "{ banks(first: 1) { totalCount } }" }))
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 200);
    })
    .await;
}

#[tokio::test]
async fn a_sign_in_posted_from_another_site_sets_no_cookie() {
    on_each_backend(false, |app| async move {
        let key = app.key_of("analyst", None).await;
        for headers in [
            vec![("origin", "https://evil.example")],
            vec![("sec-fetch-site", "cross-site"), ("origin", "https://evil.example")],
        ] {
            let mut req = browser()
                .post(format!("{}/sign-in", app.base))
                .header("content-type", "application/x-www-form-urlencoded")
                .body(format!("key={key}&next=%2Fdashboard"));
            for (k, v) in &headers {
                req = req.header(*k, *v);
            }
            let r = req.send().await.expect("answer");
            assert_eq!(r.status().as_u16(), 403, "{headers:?}");
            assert!(r.headers().get("set-cookie").is_none(), "{headers:?}: no session");
            assert!(r.text().await.expect("html").contains("outro site"));
        }
        let stored = <entity::browser_session::Entity as sea_orm::EntityTrait>::find()
            .all(&app.db)
            .await
            .expect("sessions");
        assert!(stored.is_empty(), "no session started: {stored:?}");
        // From the form itself (a user typing, or this site's page), it signs in.
        let r = browser()
            .post(format!("{}/sign-in", app.base))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("sec-fetch-site", "same-origin")
            .body(format!("key={key}&next=%2Fdashboard"))
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 303);
        assert!(r.headers().get("set-cookie").is_some());
    })
    .await;
}

const REVOKE: &str =
    "mutation R($id: ID!) { revokeApiKey(input: { id: $id }) { key { number prefix role state revokedAt } } }";

#[tokio::test]
async fn an_administrator_revokes_a_key_in_the_graph_and_its_sessions_end_at_once() {
    on_each_backend(false, |app| async move {
        let key = app.key_of("analyst", None).await;
        let cookie = sign_in(&app, &key, None).await;
        assert_eq!(with_cookie(&app, &cookie).await, 200);
        let (status, _) = ask(&app, &key, "{ banks(first: 1) { totalCount } }").await;
        assert_eq!(status, 200);
        // Not the analyst's to do.
        let (_, body) = ask(
            &app,
            &key,
            "mutation { revokeApiKey(input: { id: \"1\" }) { key { state } } }",
        )
        .await;
        assert_eq!(code(&body), "FORBIDDEN", "{body}");
        let prefix = &key[..12];
        let data = app.data(REVOKE, json!({ "id": prefix })).await;
        let revoked = &data["revokeApiKey"]["key"];
        assert_eq!(revoked["state"], "REVOKED", "{data}");
        assert_eq!(revoked["prefix"], prefix);
        assert_eq!(revoked["role"], "analyst");
        assert!(revoked["revokedAt"].is_string());
        // At once: the key and its browser session are refused.
        let (status, _) = ask(&app, &key, "{ banks(first: 1) { totalCount } }").await;
        assert_eq!(status, 401, "the key is refused at once");
        assert_eq!(with_cookie(&app, &cookie).await, 401, "its session ended");
        // By number too; revoking again answers the key as it is.
        let number = revoked["number"].as_i64().expect("number").to_string();
        let again = app.data(REVOKE, json!({ "id": number })).await;
        assert_eq!(again["revokeApiKey"]["key"]["state"], "REVOKED");
        let (message, code) = app.error(REVOKE, json!({ "id": "fmt_nothere" })).await;
        assert_eq!(code, "NOT_FOUND", "{message}");
    })
    .await;
}

/// A graphql-transport-ws socket subscribed to `flagRaised` with `bearer` in `connection_init`.
async fn subscribed(app: &TestApp, bearer: &str) -> crate::sockets::Ws {
    crate::sockets::subscribed(&app.base, bearer, "subscription { flagRaised { ruleCode } }").await
}

/// The close frame the socket gets within `seconds`.
async fn closed_within(
    ws: &mut crate::sockets::Ws,
    seconds: u64,
) -> tokio_tungstenite::tungstenite::protocol::CloseFrame {
    use futures::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    loop {
        match tokio::time::timeout(std::time::Duration::from_secs(seconds), ws.next()).await {
            Ok(Some(Ok(Message::Close(frame)))) => break frame.expect("a close frame with a code"),
            Ok(Some(Ok(_))) => {}
            other => panic!("no close within {seconds} s: {other:?}"),
        }
    }
}

#[tokio::test]
async fn revoking_a_key_closes_its_open_subscription() {
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
    on_each_backend(false, |app| async move {
        let key = app.key_of("analyst", None).await;
        let other = app.key_of("analyst", None).await;
        let mut ws = subscribed(&app, &key).await;
        let mut untouched = subscribed(&app, &other).await;
        let started = std::time::Instant::now();
        app.data(REVOKE, json!({ "id": &key[..12] })).await;
        let frame = closed_within(&mut ws, 5).await;
        assert_eq!(frame.code, CloseCode::from(4403), "{frame:?}");
        // In the socket's language: Portuguese, as its upgrade asked for none.
        assert!(frame.reason.contains("revogada"), "{frame:?}");
        eprintln!(
            "subscription ({:?}) closed {:?} after the revocation",
            app.backend,
            started.elapsed()
        );
        // Another key's subscription stays open.
        let still = tokio::time::timeout(
            std::time::Duration::from_millis(1500),
            futures::StreamExt::next(&mut untouched),
        )
        .await;
        assert!(still.is_err(), "another key's socket is left alone: {still:?}");
    })
    .await;
}

/// A graphql-transport-ws socket opened from this site's page with the session `cookie` alone (as GraphiQL opens it),
/// subscribed to `flagRaised`.
async fn subscribed_with_cookie(app: &TestApp, cookie: &str) -> crate::sockets::Ws {
    let mut ws = crate::sockets::connect(&app.base, &[("Cookie", cookie), ("Origin", &app.base)]).await;
    crate::sockets::init(&mut ws, json!({})).await;
    crate::sockets::subscribe(&mut ws, "subscription { flagRaised { ruleCode } }").await;
    ws
}

#[tokio::test]
async fn signing_out_closes_the_subscriptions_the_session_opened() {
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
    on_each_backend(false, |app| async move {
        let key = app.key_of("analyst", None).await;
        let cookie = sign_in(&app, &key, None).await;
        let other = sign_in(&app, &key, None).await;
        let mut ws = subscribed_with_cookie(&app, &cookie).await;
        let mut untouched = subscribed_with_cookie(&app, &other).await;
        let out = browser()
            .post(format!("{}/sign-out", app.base))
            .header("cookie", &cookie)
            .header("origin", &app.base)
            .send()
            .await
            .expect("answer");
        assert_eq!(out.status().as_u16(), 303);
        let frame = closed_within(&mut ws, 5).await;
        assert_eq!(frame.code, CloseCode::from(4403), "{frame:?}");
        // The other session of the same key (another browser) stays open.
        let still = tokio::time::timeout(
            std::time::Duration::from_millis(1500),
            futures::StreamExt::next(&mut untouched),
        )
        .await;
        assert!(still.is_err(), "another session's socket is left alone: {still:?}");
    })
    .await;
}

#[tokio::test]
async fn a_subscription_ends_when_its_token_expires() {
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
    on_each_backend_with(false, with_provider, |app| async move {
        let exp = chrono::Utc::now().timestamp() + 3;
        let short = token(
            PROVIDER_KEY,
            claims("ana@mda.gov.br", json!("mda"), json!({ "exp": exp })),
        );
        let mut ws = subscribed(&app, &short).await;
        let frame = closed_within(&mut ws, 8).await;
        assert_eq!(frame.code, CloseCode::from(4403), "{frame:?}");
        assert!(
            chrono::Utc::now().timestamp() >= exp,
            "closed at the token's expiry, not before"
        );
    })
    .await;
}

/// Not a test by itself: a second server process on the database of `FOMENTO_CHILD_SERVER_DB`, serving until it is
/// killed (started by `a_key_revoked_in_one_process_is_refused_at_once_by_another`). It prints its port.
#[tokio::test]
#[ignore = "started by another test as a second server process"]
async fn child_server_until_killed() {
    let Ok(url) = std::env::var("FOMENTO_CHILD_SERVER_DB") else {
        return;
    };
    let mut settings = Settings::new(url, "127.0.0.1:0".parse().expect("address"));
    settings.rate_limit = 0;
    settings.file_store = std::env::temp_dir()
        .join(format!("fomento-test-store-{}", uuid::Uuid::new_v4()))
        .display()
        .to_string();
    let app = fomento_api::startup::Application::build(settings)
        .await
        .expect("the second server starts");
    println!("FOMENTO_CHILD_PORT={}", app.port());
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let _ = app.run_with_shutdown(std::future::pending()).await;
}

#[tokio::test]
async fn a_key_revoked_in_one_process_is_refused_at_once_by_another() {
    use std::io::BufRead;
    let Some((url, cleanup)) = fresh_database(Backend::Postgres).await else {
        return;
    };
    let (app, running) = start(url.clone(), Backend::Postgres, false, |_| {}).await;
    let mut child = std::process::Command::new(std::env::current_exe().expect("this test binary"))
        .args([
            "sessions::child_server_until_killed",
            "--exact",
            "--ignored",
            "--test-threads=1",
            "--nocapture",
        ])
        .env("FOMENTO_CHILD_SERVER_DB", &url)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the second server");
    let stdout = child.stdout.take().expect("its output");
    let port = tokio::task::spawn_blocking(move || {
        std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .find_map(|l| {
                l.split_once("FOMENTO_CHILD_PORT=")
                    .map(|(_, port)| port.trim().to_owned())
            })
    });
    let port = tokio::time::timeout(std::time::Duration::from_secs(60), port)
        .await
        .ok()
        .and_then(Result::ok)
        .flatten();
    let outcome = futures::FutureExt::catch_unwind(std::panic::AssertUnwindSafe(async {
        let port = port.expect("the second server's port");
        let other = format!("http://127.0.0.1:{port}");
        let key = app.key_of("analyst", None).await;
        // The other process has looked the key up (and keeps it in its cache for 30 s).
        let (status, _) = ask_at(&other, &key, "{ banks(first: 1) { totalCount } }").await;
        assert_eq!(status, 200);
        let (status, _) = ask_at(&other, &key, "{ banks(first: 1) { totalCount } }").await;
        assert_eq!(status, 200);
        let started = std::time::Instant::now();
        app.data(REVOKE, json!({ "id": &key[..12] })).await;
        loop {
            let (status, _) = ask_at(&other, &key, "{ banks(first: 1) { totalCount } }").await;
            if status == 401 {
                break;
            }
            assert_eq!(status, 200);
            assert!(
                started.elapsed() < std::time::Duration::from_secs(5),
                "the other process still accepts the revoked key after 5 s"
            );
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        eprintln!(
            "the other process refused the revoked key {:?} after the revocation",
            started.elapsed()
        );
    }))
    .await;
    let _ = child.kill();
    let _ = child.wait();
    running.stop().await;
    cleanup.run().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}
