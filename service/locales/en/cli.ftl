## The `fomento` command's output a person reads (api/src/commands.rs). English with FOMENTO_LANG=en.

cli-error = error: { $message }
cli-cannot-read = cannot read { $file }: { $reason }
cli-cannot-write = cannot write { $file }: { $reason }
cli-import-not-an-id = --{ $option }: { $value } is neither a number nor the ID of a { $target ->
    [project] social-fuel project
    [carta] FCO carta
   *[meeting] chamber meeting
}
cli-import-known = import { $id }: these bytes were already received for this { $target ->
    [project] project
    [carta] carta
   *[meeting] meeting
}
cli-import-done = import { $id } ({ $kind } for { $target ->
    [project] project
    [carta] carta
   *[meeting] meeting
} { $target_id }): { $status } — { $rows } rows read, { $applied } applied
cli-row-error = row { $row }, { $column }: { $message }
cli-row-error-value = row { $row }, { $column }: { $message } ({ $value })
cli-import-not-applied = import { $id } is { $status }: nothing was applied
cli-unknown-job = unknown job "{ $job }"; the jobs are: { $jobs }
cli-slot-taken = another process holds slot { $slot }
cli-job-failed = { $job } failed: { $reason }
cli-storing = storing { $file } ({ $bytes } bytes)…
cli-report-received = report { $id } { $how ->
    [new] received
    [known] already received
   *[requeued] already received, had FAILED: queued again
} ({ $sha256 }); ingesting…
cli-report-done = report { $id }: { $status } — { $rows } rows, { $errors } errors in { $seconds } s
cli-report-vanished = report { $id } vanished
cli-no-report = no bank report { $number }
cli-report-not-failed = bank report { $number } is { $status }, not FAILED: nothing to retry
cli-report-requeued = bank report { $number } queued again (it was FAILED: { $reason })
cli-report-after-attempt = bank report { $number }: { $status } after attempt { $attempt }
cli-export-format = --format "{ $format }": write csv or xlsx
cli-export-done = { $rows } rows of { $name } written to { $file }
cli-any = any
cli-all = all
cli-webhook-line = { $url } programme={ $programme } bank={ $bank } events={ $events } lang={ $lang }
cli-webhook-removed-mark = (removed)
cli-webhook-added = webhook { $id } added: { $line }
cli-webhook-removed = webhook { $id } removed: { $url }
cli-purged = raw files received before { DATE($before) } purged: { $files } files ({ $reports } reports, { $imports } imports); { $kept } kept for a later upload
cli-key-line = { $prefix }…  { $role }{ $bank }  { $name }{ $rate }  { $state }
cli-key-bank = { " " }(bank { $bank })
cli-key-active = active
cli-key-revoked-at = revoked { $at }
cli-key-created = key { $id } created: { $line }; it is shown only now:
cli-key-revoked = key { $id } revoked: { $line }
cli-parameters-added = { $count } parameter versions added from { $file }
cli-nothing-imported = nothing imported: { $count } problem(s)
cli-semi-arid = { $count } municipalities of the semi-arid by { $source }, in force from { DATE($from) }
cli-semi-arid-to = { $count } municipalities of the semi-arid by { $source }, in force from { DATE($from) } to { DATE($to) }
cli-semi-arid-closed = ; closed the day before: { $closed }
cli-oidc-together = --oidc-issuer, --oidc-client-id and --oidc-redirect-url go together
cli-jobs-job = job
cli-jobs-schedule = schedule
cli-jobs-zone = time zone
cli-jobs-last = last run
cli-jobs-next = next run
cli-jobs-never = never
# What each job does (`fomento jobs list`), by the job's name.
cli-job-ingest = claims received banks' monthly reports (or ones whose lease expired) and ingests them; also right after each upload
cli-job-import = claims received fact imports (acquisitions, carta items, meeting agendas) and applies them; also right after each upload
cli-job-expire-approvals = expires the CDAE approvals whose 120 days lapsed with no presentation to the bank recorded (FCO-VALIDITY-120D), with a history row, before the day's flags
cli-job-flag-deadlines = judges every deadline and rule outcome and keeps the compliance flags in step (raised, changed, resolved)
cli-job-build-dashboards = builds the compliance dashboard as of the day (after the day's flags), kept for complianceDashboard and /dashboard
cli-job-purge-raw-files = purges the raw uploaded files past their retention (--retain-raw-files, 5 years by default); reports and imports keep their rows and outcome
cli-job-deliver-webhooks = sends the webhook deliveries that are due, signed; a refused one is tried again with backoff, 10 attempts
# `fomento ingest`'s progress: $bar the bar and its percentage.
cli-progress = { $bar }% { $rows } of { $total } rows, { $rate }
cli-progress-unknown = { $rows } rows read, { $rate }
cli-per-second = { $rate } rows/s
