//! TLS to PostgreSQL with rustls, as the server's other TLS (email, payments): no
//! OpenSSL. The URL's `sslmode` decides (`disable`, `prefer`, the client's default, or
//! `require`); a server's certificate is checked against Mozilla's roots, or against the
//! certificates of `--database-ca` (a PEM file: a private network's own authority).
//! A unix socket never uses TLS.

use std::future::Future;
use std::io;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use postgres::tls::{ChannelBinding, MakeTlsConnect, TlsConnect, TlsStream};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{ClientConfig, RootCertStore, crypto};

use super::{Error, Result};

/// What every connection's TLS is made from.
#[derive(Clone)]
pub(super) struct Tls {
    config: Arc<ClientConfig>,
}

impl Tls {
    /// Mozilla's roots, or the certificates in the PEM file `ca` when given.
    pub(super) fn new(ca: Option<&Path>) -> Result<Tls> {
        let mut roots = RootCertStore::empty();
        match ca {
            Some(path) => {
                let read = |err: &dyn std::fmt::Display| {
                    Error::Other(format!("the database's CA file {}: {err}", path.display()))
                };
                for cert in CertificateDer::pem_file_iter(path).map_err(|err| read(&err))? {
                    roots.add(cert.map_err(|err| read(&err))?).map_err(|err| read(&err))?;
                }
            }
            None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        }
        let config = ClientConfig::builder_with_provider(Arc::new(crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|err| Error::Other(format!("TLS: {err}")))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(Tls { config: Arc::new(config) })
    }
}

impl<S> MakeTlsConnect<S> for Tls
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    type Stream = Stream<S>;
    type TlsConnect = Connect;
    type Error = io::Error;

    /// Asked also for a unix socket (whose path is no server name), where the handshake
    /// never happens: a name that cannot be checked is refused only when TLS begins.
    fn make_tls_connect(&mut self, domain: &str) -> io::Result<Connect> {
        let name = ServerName::try_from(domain.to_owned()).map_err(|err| format!("{domain:?}: {err}"));
        Ok(Connect { connector: tokio_rustls::TlsConnector::from(Arc::clone(&self.config)), name })
    }
}

/// One connection's handshake.
pub(super) struct Connect {
    connector: tokio_rustls::TlsConnector,
    name: std::result::Result<ServerName<'static>, String>,
}

impl<S> TlsConnect<S> for Connect
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    type Stream = Stream<S>;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<Stream<S>>> + Send>>;

    fn connect(self, stream: S) -> Self::Future {
        Box::pin(async move {
            let name = self.name.map_err(|err| io::Error::new(io::ErrorKind::InvalidInput, err))?;
            Ok(Stream(self.connector.connect(name, stream).await?))
        })
    }
}

/// A connection's stream once encrypted.
pub(super) struct Stream<S>(tokio_rustls::client::TlsStream<S>);

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for Stream<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for Stream<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> TlsStream for Stream<S> {
    /// No channel binding: the password goes inside TLS, checked against the roots.
    fn channel_binding(&self) -> ChannelBinding {
        ChannelBinding::none()
    }
}
