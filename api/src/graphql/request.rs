//! What every door (HTTP, its multipart uploads, the WebSocket) does around the one schema, once per request: the
//! document's limits before it runs, the audit slot its mutations name their objects in, and the errors' messages
//! rendered in the request's language after it ran.

use super::{AppSchema, guard::AuditTarget, limits, localise};
use async_graphql::{Data, Executor, Request, Response, futures_util::stream::BoxStream, parser::parse_query};
use futures::StreamExt;
use service::messages::Lang;
use std::sync::Arc;

/// `request` with what every execution needs from its door.
pub fn prepared(request: Request) -> Request {
    request.data(Arc::new(AuditTarget::default()))
}

/// The answer as the door sends it: each error's message in `lang`.
pub fn finished(mut response: Response, lang: Lang) -> Response {
    localise::render(&mut response, lang);
    response
}

/// The schema as the WebSocket's subscriptions run it: the query's size and document checked first (a refusal is the
/// request's one answer), each answer's errors in the connection's language (Portuguese unless its `connection_init`
/// data says otherwise).
#[derive(Clone)]
pub struct Checked(pub AppSchema);

impl Checked {
    /// The request's limits; a refusal is the request's one answer.
    fn check(request: &mut Request, lang: Lang) -> Result<(), Box<Response>> {
        let checked = limits::check_size(&request.query, lang).and_then(|()| {
            // A text that does not parse is left to the schema, which answers it as a parse error.
            match parse_query(&request.query) {
                Ok(doc) => limits::check_document(&doc, &request.variables, lang).map(|()| Some(doc)),
                Err(_) => Ok(None),
            }
        });
        match checked {
            Ok(doc) => {
                if let Some(doc) = doc {
                    request.set_parsed_query(doc);
                }
                Ok(())
            }
            Err(e) => Err(Box::new(Response::from_errors(vec![e]))),
        }
    }
}

impl Executor for Checked {
    fn execute(&self, mut request: Request) -> impl Future<Output = Response> + Send {
        let schema = self.0.clone();
        async move {
            let lang = request
                .data
                .get(&std::any::TypeId::of::<Lang>())
                .and_then(|l| l.downcast_ref::<Lang>());
            let lang = lang.copied().unwrap_or_default();
            if let Err(refused) = Self::check(&mut request, lang) {
                return finished(*refused, lang);
            }
            finished(schema.execute(prepared(request)).await, lang)
        }
    }

    fn execute_stream(&self, mut request: Request, session_data: Option<Arc<Data>>) -> BoxStream<'static, Response> {
        let lang = session_data
            .as_ref()
            .and_then(|d| d.get(&std::any::TypeId::of::<Lang>()))
            .and_then(|l| l.downcast_ref::<Lang>())
            .copied()
            .unwrap_or_default();
        if let Err(refused) = Self::check(&mut request, lang) {
            return futures::stream::once(async move { finished(*refused, lang) }).boxed();
        }
        self.0
            .execute_stream_with_session_data(prepared(request), session_data.unwrap_or_default())
            .map(move |r| finished(r, lang))
            .boxed()
    }
}
