# The pages Fomento serves (the banks'; the browser answers for 401, 403 and 404).

pages-page-skip = Skip to the content
pages-nav-label = Main navigation
pages-nav-home = Home
pages-nav-send = Send the monthly list
pages-nav-reports = My lists
pages-nav-sign_out = Sign out
pages-form-problems = There is a problem
pages-problem-401 = Sign in first
pages-problem-403 = Not allowed
pages-problem-404 = Page not found
pages-problem-401-text = The session has ended or was never started: sign in again with your key.
pages-problem-404-text = This address does not exist in Fomento.
pages-problem-404-address = no resource at { $path }
pages-problem-to_start = Go to your start page
pages-nav-start = Start page
pages-problem-to_sign_in = Sign in with another key
pages-dashboard-for_analysts = The compliance dashboard is for analysts, MDA and the chamber. Your bank's pages are at Home.

# The sign-in page (api/src/http/session.rs).
pages-sign_in-title = Fomento — sign in
pages-sign_in-key = API key or token
pages-sign_in-submit = Sign in
pages-sign_in-oidc = Sign in with the identity provider
pages-sign_in-session = The session lasts 8 hours, in a cookie of this site only; signing out ends it.
pages-sign_in-language = English
pages-sign_in-continue = Continue
pages-sign_in-invalid = Invalid, revoked or expired key or token.
pages-sign_in-unavailable = Fomento could not record the session just now; try again in a moment.
pages-sign_in-no_flow = The identity provider's answer does not match a sign-in begun in this browser.
pages-sign_in-state_mismatch = The identity provider's answer does not match this sign-in (its state differs).
pages-sign_in-not_authorised = The identity provider did not authorise the sign-in ({ $why }).
pages-sign_in-no_role = The identity provider did not confirm an identity with a role in Fomento (no role, or the token failed a check).

bank-only = These pages are the banks': sign in with a bank's key.

bank-status-RECEIVED = Received
bank-status-PROCESSING = Processing
bank-status-INGESTED = Accepted
bank-status-REJECTED = Refused
bank-status-FAILED = Failed
bank-status-SUPERSEDED = Superseded
bank-severity-VIOLATION = Violation
bank-severity-WARNING = Warning
bank-severity-INFO = Information
bank-deadline-met = met
bank-deadline-late = met late
bank-deadline-overdue = overdue
bank-deadline-pending = running
bank-deadline-not_started = not started

bank-col-number = Number
bank-col-month = Month
bank-col-status = Status
bank-col-received = Received
bank-col-rows = Rows
bank-col-errors = Errors
bank-col-row = Row
bank-col-column = Column
bank-col-value = Value
bank-col-message = Error

bank-home-title = { $bank } — home
bank-home-lead = { $bank }, as of { $day }.
bank-home-owed = Monthly lists owed
bank-home-owed_none = No monthly list owed: every one of the last months was accepted.
bank-home-owed_month = The list of { $month }
bank-home-send_month = Send the one of { $month }
bank-home-not_sent = not sent
bank-home-send = Send
bank-home-deadlines = Deadlines
bank-home-due = due by { $day }
bank-home-latest = Latest lists sent
bank-home-all_reports = All lists
bank-home-flags = Open flags on your cartas ({ $count })
bank-home-flags_none = No open flag.
bank-home-raised = raised on { $day }

bank-send-title = Send the monthly list
bank-send-lead = The list of the cartas approved and contracted in the year, for { $bank }.
bank-send-template = Download the spreadsheet template
bank-send-month = Month of the list
bank-send-month_hint = The months owed come first. A future month, or one before March 2019, is refused.
bank-send-option_owed = { $month } — owed
bank-send-option_sent = { $month } — { $status }
bank-send-file = The list's file
bank-send-file_hint = xlsx, xls, ods or CSV. Choose the file or drag it here.
bank-send-drop = Drop the file here
bank-send-progress = Upload of the file
bank-send-submit = Send the list
bank-send-month_missing = Choose the month of the list.
bank-send-file_missing = Choose the list's file.

bank-reports-title = My lists
bank-reports-month = Month
bank-reports-any_month = Every month
bank-reports-status = Status
bank-reports-any_status = Every status
bank-reports-filter = Filter
bank-reports-count = { $count ->
    [one] 1 list
   *[other] { $count } lists
}
bank-reports-none = No list.

bank-report-title = List no. { $number } ({ $month })
bank-report-short = no. { $number }
bank-report-status = Status:
bank-report-following = following…
bank-report-file = File
bank-report-bytes = { $count } bytes
bank-report-declared = Cartas declared
bank-report-dropped = Cartas dropped since the month before
bank-report-failed = Fomento could not process the file; nothing was applied and the file is kept. Send it again or quote the reference { $reference }.
bank-report-ingested = List accepted: the cartas are recorded.
bank-report-original = Download the file sent
bank-report-errors_xlsx = Download the workbook with the errors marked
bank-report-send_corrected = Send a corrected file
bank-report-file_error = The file could not be read
bank-report-row_errors = { $count ->
    [one] 1 row error
   *[other] { $count } row errors
}

pages-nav-cartas = My cartas
bank-cartas-title = My cartas-consulta
bank-cartas-approved = Decided in the month
bank-cartas-contracted = Contracted in the month
bank-cartas-month_hint = Month and year (YYYY-MM); empty for any month.
bank-cartas-count = { $count ->
    [one] 1 carta
   *[other] { $count } cartas
}{ $shown ->
    [100] , the latest 100 in the table
   *[other] {""}
}
bank-cartas-in_template = Download in the monthly list template's layout (xlsx)
bank-cartas-export = Download the list as a spreadsheet (xlsx)
bank-cartas-number = Carta
bank-cartas-borrower = Borrower
bank-cartas-stage = Stage
bank-cartas-amount = Amount financed
bank-cartas-approved_on = Approved on
bank-cartas-contracted_on = Contracted on

pages-nav-keys = Banks' keys
pages-nav-dashboard = Dashboard
admin-keys-title = The banks' access keys
admin-keys-issue = Issue a key for a bank's user
admin-keys-bank = Bank
admin-keys-name = Name of the user or of the use
admin-keys-name_hint = For example: Maria (Sicredi back office). Shown in the list and in the audit log.
admin-keys-name_missing = Give the name of the key's user or use.
admin-keys-submit = Issue the key
admin-keys-issued = Key issued for { $name }
admin-keys-once = Copy the key now and hand it to its user over a safe channel: it is shown this once, and Fomento keeps only its digest.
admin-keys-list = Keys issued
admin-keys-col_prefix = Start of the key
admin-keys-col_role = Role
admin-keys-col_bank = Bank
admin-keys-col_name = Name
admin-keys-col_created = Created
admin-keys-col_state = State
admin-keys-revoked = revoked on { $day }
admin-keys-revoke = Revoke
admin-keys-revoke_named = Revoke the key { $prefix } ({ $name })
admin-keys-already_shown = The key issued was already shown and is not shown again; reloading the page issues no other. If it was not copied, revoke it and issue another.
admin-keys-revoked_done = Key { $prefix } revoked: it no longer works and its sessions were ended.
admin-keys-own = your current key
admin-keys-own_refused = This is the key you signed in with; this page does not revoke it. Use another administrator's key or the command line (fomento keys revoke).
admin-keys-confirm_title = Revoke a key
admin-keys-confirm_text = Revoke the key { $prefix } ({ $name })? It stops working at once and the sessions opened with it end; this cannot be undone.
admin-keys-cancel = Cancel and go back to the keys
