//! The banks' back-office pages (issue 46) as a clerk uses them, in a real headless Chromium: sign in with the
//! bank's key, see what is owed, send the monthly list, follow its status, read the row errors, download the error
//! workbook, send a corrected file; another bank's reports never appear; a future month is refused on the page; every
//! page passes axe-core (no serious or critical violation) and reads at a desktop's and a phone's width. Then the
//! answers a browser and an API client get.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::browser::Browser;
use crate::helpers::{TestApp, client_with, on_each_backend};
use crate::reports::{C, cpf, good_row, upload, workbook};
use chrono::{Datelike, Months};
use serde_json::{Value, json};

/// The month before this one (`YYYY-MM`): owed by now, and open to every bank.
fn last_month() -> chrono::NaiveDate {
    let today = chrono::Utc::now().date_naive();
    today
        .with_day(1)
        .expect("first")
        .checked_sub_months(Months::new(1))
        .expect("a month")
}

/// A valid row of `month`'s list: carta `number`, approved on the month's 1st and contracted on its 2nd.
fn row(number: &str, doc: String, month: chrono::NaiveDate) -> Vec<C> {
    let mut r = good_row(number, doc, 50_000.0);
    r[9] = C::D(month.year() as u16, month.month() as u8, 1);
    r[10] = C::S(month.with_day(2).expect("day").format("%d/%m/%Y").to_string());
    r
}

/// Gives the page's file field `bytes` named `name`, as the file chooser would (or, with `drop`, by dropping it on
/// the field's area).
async fn choose_file(b: &mut Browser, name: &str, bytes: &[u8], drop: bool) {
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    let how = if drop {
        "const e = new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }); document.getElementById('drop').dispatchEvent(e);"
    } else {
        "document.getElementById('file').files = dt.files;"
    };
    b.eval(&format!(
        "(() => {{ const raw = atob({data}); const bytes = new Uint8Array(raw.length);
            for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
            const dt = new DataTransfer(); dt.items.add(new File([bytes], {name}));
            {how} return document.getElementById('file').files.length; }})()",
        data = json!(data),
        name = json!(name),
    ))
    .await;
    assert_eq!(
        b.eval("document.getElementById('file').files.length").await,
        1,
        "the file is chosen"
    );
}

/// Sends the form for `month` and waits for the report's page; its number.
async fn send(b: &mut Browser, app: &TestApp, month: &str) -> i64 {
    b.eval(&format!(
        "document.getElementById('month').value = {m}; document.getElementById('send-form').requestSubmit(); true",
        m = json!(month)
    ))
    .await;
    b.wait_for(
        "/^\\/bank\\/reports\\/\\d+$/.test(location.pathname) && document.readyState === 'complete'",
        "the report's page",
    )
    .await;
    let number: i64 = b
        .eval("location.pathname.split('/').pop()")
        .await
        .as_str()
        .and_then(|n| n.parse().ok())
        .expect("a report number");
    // The ingestion worker picks it up; the step is run here too so the test does not wait for its schedule.
    jobs::report::ingest::run_once(&app.runtime.ctx, chrono::Utc::now())
        .await
        .expect("the ingestion runs");
    b.wait_for(
        "document.getElementById('report').dataset.settled === 'true'",
        "the status to settle on the page",
    )
    .await;
    number
}

/// axe-core finds no serious or critical violation on the page open now, and it reads at 1400 px and 390 px:
/// nothing overflows, no text under 14 px.
async fn check_page(b: &mut Browser, name: &str, shots: Option<&str>) {
    if let Some(found) = b.axe().await {
        assert!(found.is_empty(), "{name}: accessibility violations: {found:#?}");
    }
    for (width, height) in [(1400, 1000), (390, 1600)] {
        b.viewport(width, height).await;
        let problems = b.layout_problems().await;
        assert_eq!(problems, json!({ "overflow": [], "small": [] }), "{name} at {width} px");
        if let Some(prefix) = shots {
            let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{prefix}-{width}.png"));
            b.screenshot(&path).await;
            eprintln!("screenshot: {}", path.display());
        }
    }
    b.viewport(1400, 1000).await;
}

#[tokio::test]
async fn a_bank_clerk_sends_the_monthly_list_sees_its_row_errors_and_sends_it_corrected_in_a_browser() {
    on_each_backend(true, |app| {
        async move {
            let Some(mut browser) = Browser::launch("pt-BR,pt;q=0.9").await else {
                return;
            };
            let b = &mut browser;
            let month = last_month();
            let m = month.format("%Y-%m").to_string();
            // Another bank's list, sent through the API: never shown to Sicredi.
            let bb = workbook(&[row("BB-PAGE-1", cpf(300), month)]);
            let (status, other) = upload(&app, "BB", &m, "bb.xlsx", bb).await;
            assert_eq!(status, 201, "{other}");
            let other_number = other["number"].as_i64().expect("number");

            // Sign in with the bank's key: to its home.
            let key = app.key_of("bank", Some("SICREDI")).await;
            b.goto(&format!("{}/sign-in?next=/bank", app.base)).await;
            b.eval(&format!(
                "document.getElementById('key').value = {k}; document.querySelector('form').submit(); true",
                k = json!(key)
            ))
            .await;
            b.wait_for(
                "location.pathname === '/bank' && document.readyState === 'complete'",
                "the bank's home",
            )
            .await;
            let home = b.text().await;
            assert!(home.contains("SICREDI — início"), "{home}");
            assert!(
                home.contains("Relações mensais devidas") && home.contains("Prazos"),
                "{home}"
            );
            assert!(
                b.eval("document.documentElement.lang").await == "pt-BR",
                "Portuguese"
            );
            check_page(b, "home", None).await;

            // The form: no month after this one is offered, none before March 2019.
            b.goto(&format!("{}/bank/send", app.base)).await;
            let months = b
                .eval("[...document.querySelectorAll('#month option')].map(o => o.value)")
                .await;
            let this_month = chrono::Utc::now().date_naive().format("%Y-%m").to_string();
            let months: Vec<&str> = months.as_array().expect("options").iter().filter_map(Value::as_str).collect();
            assert!(months.contains(&m.as_str()), "{months:?}");
            assert!(months.iter().all(|o| *o <= this_month.as_str() && *o >= "2019-03"), "{months:?}");
            check_page(b, "send form", None).await;

            // A month in the future, forced into the form, is refused on the page with an error summary.
            let next = chrono::Utc::now()
                .date_naive()
                .with_day(1)
                .and_then(|d| d.checked_add_months(Months::new(1)))
                .expect("next month")
                .format("%Y-%m")
                .to_string();
            b.eval(&format!(
                "(() => {{ const o = document.createElement('option'); o.value = {n}; o.textContent = {n}; document.getElementById('month').append(o); return true; }})()",
                n = json!(next)
            ))
            .await;
            choose_file(b, "futuro.xlsx", &workbook(&[row("S-FUT-1", cpf(301), month)]), false).await;
            b.eval(&format!(
                "document.getElementById('month').value = {n}; document.getElementById('send-form').requestSubmit(); true",
                n = json!(next)
            ))
            .await;
            b.wait_for("!!document.getElementById('error-summary')", "the error summary")
                .await;
            let refused = b.text().await;
            assert!(
                refused.contains("Há um problema") && refused.contains("ainda não pode existir"),
                "{refused}"
            );
            assert_eq!(
                b.eval("document.activeElement && document.activeElement.id").await,
                "error-summary",
                "the summary takes the focus"
            );
            check_page(b, "refused form", None).await;

            // A good file, chosen with the file chooser: received, then accepted.
            b.goto(&format!("{}/bank/send", app.base)).await;
            let good = workbook(&[row("S-PAGE-1", cpf(302), month), row("S-PAGE-2", cpf(303), month)]);
            choose_file(b, "relacao.xlsx", &good, false).await;
            let first = send(b, &app, &m).await;
            assert_eq!(
                b.eval("document.getElementById('report').dataset.status").await,
                "INGESTED",
                "{}",
                b.text().await
            );
            let page = b.text().await;
            assert!(page.contains("Relação aceita") && page.contains("Aceita"), "{page}");
            assert_eq!(b.eval("document.getElementById('row-count').textContent").await, "2");

            // A bad file, dropped on the field: refused, its row errors in a table, the workbook downloadable.
            b.goto(&format!("{}/bank/send", app.base)).await;
            let mut bad_row = row("S-PAGE-3", cpf(304), month);
            bad_row[2] = C::T("123.456.789-00");
            let bad = workbook(&[row("S-PAGE-1", cpf(302), month), bad_row]);
            choose_file(b, "relacao-com-erro.xlsx", &bad, true).await;
            let second = send(b, &app, &m).await;
            assert!(second > first);
            assert_eq!(b.eval("document.getElementById('report').dataset.status").await, "REJECTED");
            let errors = b
                .eval("[...document.querySelectorAll('#row-errors tbody tr')].map(r => [...r.cells].map(c => c.textContent))")
                .await;
            let errors = errors.as_array().expect("rows");
            assert_eq!(errors.len(), 1, "{errors:?}");
            assert_eq!(errors[0][0], "5", "the sheet's row (title, month, header, then rows): {errors:?}");
            assert!(
                errors[0][3].as_str().is_some_and(|m| m.contains("CPF")),
                "a Portuguese message naming the CPF: {errors:?}"
            );
            let workbook_answer = b
                .eval(
                    "fetch(document.getElementById('errors-xlsx').href).then(async r => [r.status, r.headers.get('content-type'), new Uint8Array(await r.arrayBuffer()).slice(0, 2).join(',')])",
                )
                .await;
            assert_eq!(
                workbook_answer,
                json!([200, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "80,75"]),
                "the errors workbook (a zip: PK)"
            );
            let original = b
                .eval("fetch(document.getElementById('original').href).then(async r => [r.status, (await r.arrayBuffer()).byteLength])")
                .await;
            assert_eq!(original, json!([200, bad.len()]), "the original file");
            check_page(b, "report with row errors", Some(&format!("bank-report-{:?}", app.backend))).await;

            // Send a corrected file: the form comes with the month chosen.
            b.eval("document.getElementById('send-again').click(); true").await;
            b.wait_for(
                "location.pathname === '/bank/send' && document.readyState === 'complete'",
                "the form again",
            )
            .await;
            assert_eq!(b.eval("document.getElementById('month').value").await, m.as_str());
            let fixed = workbook(&[row("S-PAGE-1", cpf(302), month), row("S-PAGE-3", cpf(304), month)]);
            choose_file(b, "relacao-corrigida.xlsx", &fixed, false).await;
            let third = send(b, &app, &m).await;
            assert!(third > second);
            assert_eq!(b.eval("document.getElementById('report').dataset.status").await, "INGESTED");

            // My cartas: those of the corrected list, contracted in the month; another bank's never.
            b.goto(&format!("{}/bank/cartas?contracted={m}", app.base)).await;
            let cartas = b
                .eval("[...document.querySelectorAll('tr[data-carta]')].map(r => r.dataset.carta)")
                .await;
            let cartas: Vec<&str> = cartas.as_array().expect("rows").iter().filter_map(Value::as_str).collect();
            assert!(cartas.contains(&"S-PAGE-1") && cartas.contains(&"S-PAGE-3"), "{cartas:?}");
            assert!(!cartas.contains(&"BB-PAGE-1"), "another bank's carta: {cartas:?}");
            let export = b
                .eval("fetch(document.getElementById('cartas-export').href).then(r => [r.status, r.headers.get('content-type')])")
                .await;
            assert_eq!(
                export,
                json!([200, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"])
            );
            check_page(b, "my cartas", None).await;

            // My reports: Sicredi's three, filtered by status; BB's never, not even by its number.
            b.goto(&format!("{}/bank/reports", app.base)).await;
            let listed = b
                .eval("[...document.querySelectorAll('tr[data-report]')].map(r => Number(r.dataset.report))")
                .await;
            let listed: Vec<i64> = listed.as_array().expect("rows").iter().filter_map(Value::as_i64).collect();
            for n in [first, second, third] {
                assert!(listed.contains(&n), "{n} in {listed:?}");
            }
            assert!(!listed.contains(&other_number), "another bank's report listed: {listed:?}");
            check_page(b, "my reports", Some(&format!("bank-reports-{:?}", app.backend))).await;
            b.goto(&format!("{}/bank/reports?status=REJECTED&month={m}", app.base)).await;
            let rejected = b
                .eval("[...document.querySelectorAll('tr[data-report]')].map(r => Number(r.dataset.report))")
                .await;
            assert_eq!(rejected, json!([second]));
            b.goto(&format!("{}/bank/reports/{other_number}", app.base)).await;
            assert!(
                b.eval("document.title").await.as_str().is_some_and(|t| t.contains("Página não encontrada")),
                "another bank's report is not found: {}",
                b.text().await
            );
            let other_file = b
                .eval(&format!("fetch('/bank/reports/{other_number}/file').then(r => r.status)"))
                .await;
            assert_eq!(other_file, 404);
            check_page(b, "not found", None).await;

            // Home again: the month is no longer owed; the latest lists are there.
            b.goto(&format!("{}/bank", app.base)).await;
            let home = b.text().await;
            assert!(
                !home.contains(&format!("Relação de {}", month.format("%m/%Y"))),
                "{home}"
            );
            check_page(b, "home after sending", Some(&format!("bank-home-{:?}", app.backend))).await;

            // The analysts' dashboard says whom it is for, as a page.
            b.goto(&format!("{}/dashboard", app.base)).await;
            let refused = b.text().await;
            assert!(refused.contains("é para analistas"), "{refused}");
            check_page(b, "dashboard refused", None).await;

            // Sign out: the pages ask to sign in again.
            b.eval("document.querySelector('form.signout').submit(); true").await;
            b.wait_for("location.pathname === '/sign-in'", "the sign-in page").await;
        }
    })
    .await;
}

#[tokio::test]
async fn a_bank_key_sends_its_list_without_naming_its_bank_and_clients_keep_json_answers() {
    on_each_backend(true, |app| async move {
        let month = last_month();
        let m = month.format("%Y-%m").to_string();
        let key = app.key_of("bank", Some("SICREDI")).await;
        let bank = client_with(&key);
        let form = reqwest::multipart::Form::new().text("month", m.clone()).part(
            "file",
            reqwest::multipart::Part::bytes(workbook(&[row("S-KEY-1", cpf(310), month)])).file_name("lista.xlsx"),
        );
        let r = bank
            .post(format!("{}/bank-reports", app.base))
            .multipart(form)
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 201);
        let body: Value = r.json().await.expect("json");
        assert_eq!(body["bank"], "SICREDI", "{body}");
        jobs::report::ingest::run_once(&app.runtime.ctx, chrono::Utc::now())
            .await
            .expect("the ingestion runs");

        // My cartas in the template's layout: the template's header, the carta as sent; sent back as the list of the
        // month, it is read as one.
        let r = bank
            .get(format!("{}/bank/cartas.xlsx?contracted={m}", app.base))
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 200);
        let bytes = r.bytes().await.expect("bytes").to_vec();
        let rows = {
            use calamine::Reader;
            let mut wb: calamine::Xlsx<_> =
                calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.clone())).expect("xlsx");
            let range = wb.worksheet_range_at(0).expect("a sheet").expect("read");
            range
                .rows()
                .map(|r| r.iter().map(|c| c.to_string()).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        };
        let template: Vec<String> = jobs::report::columns::TEMPLATE.iter().map(|t| t.1.to_owned()).collect();
        assert_eq!(rows[0], template, "the template's header");
        let sent = rows.iter().find(|r| r[0] == "S-KEY-1").expect("the carta sent");
        assert_eq!(
            (
                sent[1].as_str(),
                sent[3].as_str(),
                sent[4].as_str(),
                sent[5].as_str(),
                sent[9].as_str()
            ),
            ("Produtor Rural Ltda", "5107925", "Sorriso", "MT", "50000"),
            "{rows:?}"
        );
        assert!(
            rows.iter().skip(1).all(|r| !r[0].starts_with("BB")),
            "only the bank's own cartas: {rows:?}"
        );
        let form = reqwest::multipart::Form::new().text("month", m.clone()).part(
            "file",
            reqwest::multipart::Part::bytes(bytes).file_name("de-volta.xlsx"),
        );
        let r = bank
            .post(format!("{}/bank-reports", app.base))
            .multipart(form)
            .send()
            .await
            .expect("answer");
        let again: Value = r.json().await.expect("json");
        jobs::report::ingest::run_once(&app.runtime.ctx, chrono::Utc::now())
            .await
            .expect("the ingestion runs");
        let id = again["number"].as_i64().expect("a report");
        let status = service::reports::report(&app.db, &service::Caller::System, id)
            .await
            .expect("read")
            .expect("the report");
        let errors = service::reports::row_errors(&app.db, id, None).await.expect("errors");
        assert_eq!(
            status.status,
            "INGESTED",
            "{:?}",
            errors.iter().map(|e| &e.message).collect::<Vec<_>>()
        );

        // Every carta of the bank, unfiltered: only approved ones (what the list holds), the line and activity as the
        // template names them.
        let all = bank
            .get(format!("{}/bank/cartas.xlsx", app.base))
            .send()
            .await
            .expect("answer")
            .bytes()
            .await
            .expect("bytes")
            .to_vec();
        let all = {
            use calamine::Reader;
            let mut wb: calamine::Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(all)).expect("xlsx");
            let range = wb.worksheet_range_at(0).expect("a sheet").expect("read");
            range
                .rows()
                .map(|r| r.iter().map(|c| c.to_string()).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        };
        let at = |c: jobs::report::columns::Column| {
            jobs::report::columns::TEMPLATE
                .iter()
                .position(|t| t.0 == c)
                .expect("a column")
        };
        use jobs::report::columns::{ACTIVITY_NAMES, Column, LINE_NAMES};
        assert!(all.len() > 1, "{all:?}");
        for r in all.iter().skip(1) {
            assert!(ACTIVITY_NAMES.contains(&r[at(Column::Activity)].as_str()), "{r:?}");
            assert!(LINE_NAMES.contains(&r[at(Column::Line)].as_str()), "{r:?}");
            assert!(!r[at(Column::ApprovedOn)].is_empty(), "only approved cartas: {r:?}");
        }

        // A later list of the month refused: the month's list was ingested, so it owes nothing, on the home as in the
        // send form; the current month is not owed before it ends, and a future month is not offered.
        let mut bad_row = row("S-KEY-2", cpf(311), month);
        bad_row[2] = C::T("123.456.789-00");
        let form = reqwest::multipart::Form::new().text("month", m.clone()).part(
            "file",
            reqwest::multipart::Part::bytes(workbook(&[bad_row])).file_name("com-erro.xlsx"),
        );
        let r = bank
            .post(format!("{}/bank-reports", app.base))
            .multipart(form)
            .send()
            .await
            .expect("answer");
        let refused: Value = r.json().await.expect("json");
        jobs::report::ingest::run_once(&app.runtime.ctx, chrono::Utc::now())
            .await
            .expect("the ingestion runs");
        let refused = service::reports::report(
            &app.db,
            &service::Caller::System,
            refused["number"].as_i64().expect("a report"),
        )
        .await
        .expect("read")
        .expect("the report");
        assert_eq!(refused.status, "REJECTED");
        let page = |path: &str| {
            let (bank, url) = (bank.clone(), format!("{}{path}", app.base));
            async move {
                let r = bank
                    .get(url)
                    .header("accept", "text/html")
                    .send()
                    .await
                    .expect("answer");
                assert_eq!(r.status().as_u16(), 200);
                r.text().await.expect("html")
            }
        };
        let (shown, current) = (
            month.format("%m/%Y").to_string(),
            chrono::Utc::now().date_naive().format("%m/%Y").to_string(),
        );
        let home = page("/bank").await;
        // A future month sent from the form is refused with the month written as the page writes it.
        let form = reqwest::multipart::Form::new().text("month", "2099-03").part(
            "file",
            reqwest::multipart::Part::bytes(workbook(&[row("S-KEY-3", cpf(312), month)])).file_name("futuro.xlsx"),
        );
        let r = bank
            .post(format!("{}/bank/send", app.base))
            .header("accept", "text/html")
            .multipart(form)
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 400);
        let future = r.text().await.expect("html");
        assert!(
            future.contains("03/2099") && !future.contains("2099-03\u{20}") && !future.contains(">2099-03"),
            "{future}"
        );
        // A month that is no month in the reports' filter: the error, and no count above an empty table.
        let bad = page("/bank/reports?month=zz").await;
        assert!(bad.contains("error-summary") && !bad.contains("reports-count"), "{bad}");
        // None is "0 relações" (Portuguese's plural "one" takes 0 too): never "1 relação" for none.
        let none = page("/bank/reports?status=PROCESSING").await;
        assert!(none.contains("0 relações") && !none.contains("1 relação"), "{none}");
        // `?lang=en` is honoured as on the dashboard.
        for path in [
            "/bank?lang=en".to_owned(),
            "/bank/send?lang=en".to_owned(),
            format!("/bank/reports/{id}?lang=en"),
        ] {
            let english = page(&path).await;
            assert!(english.contains("<html lang=\"en\""), "{path}: {english}");
        }
        assert!(page("/bank?lang=en").await.contains("Monthly lists owed"));
        assert!(!home.contains(&format!("Relação de {shown}")), "{home}");
        let form = page("/bank/send?month=2099-03").await;
        assert!(!form.contains(&format!("{shown} — devida")), "{form}");
        assert!(form.contains(&format!("{shown} — Aceita")), "{form}");
        assert!(!form.contains(&format!("{current} — devida")), "{form}");
        assert!(!form.contains("2099-03") && !form.contains("03/2099"), "{form}");

        // Without a bank's key the field is needed, and the suggestion names only banks that operate FCO.
        let form = reqwest::multipart::Form::new().text("month", m.clone()).part(
            "file",
            reqwest::multipart::Part::bytes(vec![1, 2, 3]).file_name("x.csv"),
        );
        let r = app.post("/bank-reports").multipart(form).send().await.expect("answer");
        assert_eq!(r.status().as_u16(), 400);
        let body: Value = r.json().await.expect("json");
        let message = body["error"]["message"].as_str().unwrap_or("");
        assert!(message.contains("BB") && message.contains("SICREDI"), "{message}");
        assert!(!message.contains("BASA") && !message.contains("BNDES"), "{message}");

        // An API client keeps JSON: the dashboard refused to a bank, an address that does not exist.
        let r = bank
            .get(format!("{}/dashboard", app.base))
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 403);
        assert!(r.headers()["content-type"].to_str().unwrap_or("").contains("json"));
        let r = app.get("/no-such-page").send().await.expect("answer");
        assert_eq!(r.status().as_u16(), 404);
        let body: Value = r.json().await.expect("json");
        assert_eq!(body["error"]["code"], "NOT_FOUND");
        // A browser gets pages, in Portuguese unless it asks for English.
        let r = bank
            .get(format!("{}/dashboard", app.base))
            .header("accept", "text/html")
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 403);
        let html = r.text().await.expect("html");
        assert!(
            html.contains("<html lang=\"pt-BR\"") && html.contains("é para analistas"),
            "{html}"
        );
        // It offers the clerk's own start page, not the page just refused.
        assert!(
            html.contains("Ir para a sua página inicial")
                && html.contains("href=\"/\"")
                && !html.contains("Painel dos analistas"),
            "{html}"
        );
        // Another bank's (or no) report's error workbook, opened in a browser: the page, not JSON.
        let r = bank
            .get(format!("{}/bank-reports/999999/errors.xlsx", app.base))
            .header("accept", "text/html")
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 404);
        assert!(
            r.headers()["content-type"]
                .to_str()
                .unwrap_or("")
                .starts_with("text/html")
        );
        let html = r.text().await.expect("html");
        assert!(html.contains("Ir para a sua página inicial"), "{html}");
        let r = app
            .get("/no-such-page")
            .header("accept", "text/html")
            .header("accept-language", "en")
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 404);
        let html = r.text().await.expect("html");
        assert!(html.contains("Page not found"), "{html}");
        // The banks' pages are the banks': an analyst's key gets a page saying so.
        let analyst = client_with(&app.key_of("analyst", None).await);
        let r = analyst
            .get(format!("{}/bank", app.base))
            .header("accept", "text/html")
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 403);
        assert!(r.text().await.expect("html").contains("Estas páginas são dos bancos"));
        // Without a session, a browser is sent to sign in and back.
        let r = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client")
            .get(format!("{}/bank/send", app.base))
            .header("accept", "text/html")
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 303);
        assert_eq!(r.headers()["location"], "/sign-in?next=/bank/send");
        // `GET /bank-reports` from a browser leads to the bank's lists; an API client is told to POST.
        let r = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client")
            .get(format!("{}/bank-reports", app.base))
            .header("authorization", format!("Bearer {key}"))
            .header("accept", "text/html")
            .send()
            .await
            .expect("answer");
        assert_eq!(
            (r.status().as_u16(), r.headers()["location"].to_str().ok()),
            (303, Some("/bank/reports"))
        );
        let r = bank
            .get(format!("{}/bank-reports", app.base))
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 405);
        // A form posted by a browser whose session has ended: a page, with the way to sign in again.
        let r = reqwest::Client::new()
            .post(format!("{}/bank/send", app.base))
            .header("accept", "text/html")
            .header("cookie", "fomento_session=ended")
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 401);
        let html = r.text().await.expect("html");
        assert!(
            html.contains("É preciso entrar") && html.contains("href=\"/sign-in\""),
            "{html}"
        );
        // Signing in with nowhere to go back to: a bank's clerk lands on the bank's pages.
        let r = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client")
            .post(format!("{}/sign-in", app.base))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("key={key}&next="))
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 303);
        assert_eq!(r.headers()["location"], "/bank");
    })
    .await;
}

#[tokio::test]
async fn an_administrator_issues_a_banks_key_on_a_page_sees_it_once_and_revokes_it() {
    on_each_backend(true, |app| async move {
        let Some(mut browser) = Browser::launch("pt-BR").await else {
            return;
        };
        let b = &mut browser;
        b.goto(&format!("{}/sign-in?next=/admin/keys", app.base)).await;
        b.eval(&format!(
            "document.getElementById('key').value = {k}; document.querySelector('form').submit(); true",
            k = json!(app.key)
        ))
        .await;
        b.wait_for(
            "location.pathname === '/admin/keys' && document.readyState === 'complete'",
            "the keys' page",
        )
        .await;
        check_page(b, "keys", None).await;
        b.eval(
            "document.getElementById('bank').value = 'SICREDI'; document.getElementById('name').value = 'Maria (retaguarda)';
             document.getElementById('issue-form').requestSubmit(); true",
        )
        .await;
        b.wait_for("!!document.getElementById('new-key')", "the key shown").await;
        let key = b.eval("document.getElementById('new-key').textContent.trim()").await;
        let key = key.as_str().expect("the key").to_owned();
        assert!(key.starts_with("fmt_"), "{key}");
        check_page(b, "key issued", None).await;
        // Reloading the page that showed it issues nothing and does not show the key again.
        let rows = "document.querySelectorAll('#keys tbody tr').length";
        let before = b.eval(rows).await;
        b.eval("location.reload(); true").await;
        b.wait_for(
            "document.readyState === 'complete' && !!document.getElementById('notice')",
            "the page reloaded",
        )
        .await;
        assert_eq!(b.eval(rows).await, before, "a reload issues no second key");
        let reloaded = b.text().await;
        assert!(!reloaded.contains(&key), "the key is shown once only");
        assert!(reloaded.contains("já foi mostrada"), "{reloaded}");
        // The administrator's own key is not offered for revoking.
        let own = &app.key[..12];
        assert_eq!(
            b.eval(&format!("document.querySelector('tr[data-key=\"{own}\"] a.revoke') === null"))
                .await,
            json!(true),
            "no revoking of one's own key"
        );
        assert!(reloaded.contains("a sua chave atual"), "{reloaded}");
        // The key works for the bank's pages; the page that showed it is not kept, nor is the key in the list.
        let bank = client_with(&key);
        let home = bank
            .get(format!("{}/bank", app.base))
            .header("accept", "text/html")
            .send()
            .await
            .expect("answer");
        assert_eq!(home.status().as_u16(), 200);
        assert!(home.text().await.expect("html").contains("SICREDI — início"));
        b.goto(&format!("{}/admin/keys", app.base)).await;
        assert!(!b.text().await.contains(&key), "the key is shown once only");
        // Revoked from the page: refused at once.
        let prefix = &key[..12];
        // Revoking asks first: the link opens a confirmation, and only its button revokes.
        b.eval(&format!(
            "document.querySelector('tr[data-key=\"{prefix}\"] a.revoke').click(); true"
        ))
        .await;
        b.wait_for(
            "document.readyState === 'complete' && !!document.getElementById('revoke-form')",
            "the confirmation",
        )
        .await;
        let confirm = b.text().await;
        assert!(confirm.contains(&format!("Revogar a chave {prefix}")), "{confirm}");
        let still = bank
            .get(format!("{}/bank", app.base))
            .send()
            .await
            .expect("answer");
        assert_eq!(still.status().as_u16(), 200, "not revoked before confirming");
        b.eval("document.getElementById('revoke-form').submit(); true").await;
        b.wait_for(
            &format!("document.readyState === 'complete' && !!document.querySelector('tr[data-key=\"{prefix}\"]') && !document.querySelector('tr[data-key=\"{prefix}\"] a.revoke')"),
            "the key revoked",
        )
        .await;
        let after = b.text().await;
        assert!(after.contains(&format!("Chave {prefix} revogada")), "{after}");
        let refused = bank
            .get(format!("{}/bank", app.base))
            .send()
            .await
            .expect("answer");
        assert_eq!(refused.status().as_u16(), 401);
        // A bank's clerk cannot open it.
        let clerk = bank_client(&app).await;
        let r = clerk
            .get(format!("{}/admin/keys", app.base))
            .header("accept", "text/html")
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 403);
    })
    .await;
}

/// A client with a new key of Sicredi's.
async fn bank_client(app: &TestApp) -> reqwest::Client {
    client_with(&app.key_of("bank", Some("SICREDI")).await)
}
