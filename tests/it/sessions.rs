//! Identities besides API keys (issue 15, item 1): JWTs from an identity provider, verified against its JWKS, and
//! the browsers' sign-in page with its session cookie.

use crate::helpers::{TestApp, client_with, on_each_backend, on_each_backend_with};
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
    let r = client_with(bearer)
        .post(format!("{}/graphql", app.base))
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
            .find(|c| c.starts_with("fomento_session=ey"))
            .expect("the session cookie holds the ID token");
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
