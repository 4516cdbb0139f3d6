//! `mavuno ussd`: a basic phone in the terminal (docs/ussd.md). It posts what
//! Africa's Talking's gateway posts (a form with `sessionId`, `serviceCode`,
//! `phoneNumber`, `networkCode` and the answers so far in `text`) to the running
//! server's USSD address, shows each screen, and reads the next answer.

use std::io::{BufRead, Write};
use std::path::Path;

/// Dials the menu as `phone` until a last screen (`END`) or the end of input.
pub async fn run(
    server: &str,
    data_dir: &Path,
    token: Option<String>,
    phone: &str,
    lang: Option<&str>,
) -> Result<(), String> {
    let token = match token {
        Some(token) => token,
        None => {
            std::fs::read_to_string(data_dir.join("gateway-token")).map(|t| t.trim().to_owned()).map_err(|err| {
                format!(
                    "cannot read the server's gateway secret in {}: {err} (give --data-dir of the running server, \
                 or --gateway-token)",
                    data_dir.display()
                )
            })?
        }
    };
    let url = format!("{}/api/v1/ussd/{token}", server.trim_end_matches('/'));
    let session = uuid::Uuid::new_v4().to_string();
    let http = reqwest::Client::new();
    let mut answers: Vec<String> = Vec::new();
    let stdin = std::io::stdin();
    loop {
        let text = answers.join("*");
        let mut form = vec![
            ("sessionId", session.as_str()),
            ("serviceCode", "*384*1#"),
            ("phoneNumber", phone),
            ("networkCode", "63001"),
            ("text", text.as_str()),
        ];
        if let Some(lang) = lang {
            form.push(("lang", lang));
        }
        let response = http
            .post(&url)
            .form(&form)
            .send()
            .await
            // The address holds the gateway secret: never printed.
            .map_err(|err| format!("{}/api/v1/ussd/[secret]: {}", server.trim_end_matches('/'), err.without_url()))?;
        let status = response.status();
        let body = response.text().await.map_err(|err| err.to_string())?;
        if !status.is_success() {
            return Err(format!("the server answered {status}: {body} (is the gateway secret this server's?)"));
        }
        let (end, screen) = match body.split_once(' ') {
            Some(("END", screen)) => (true, screen),
            Some(("CON", screen)) => (false, screen),
            _ => return Err(format!("not a USSD screen: {body}")),
        };
        println!("\n{}\n{screen}\n{}", "-".repeat(24), "-".repeat(24));
        if end {
            return Ok(());
        }
        print!("> ");
        std::io::stdout().flush().map_err(|err| err.to_string())?;
        let mut line = String::new();
        if stdin.lock().read_line(&mut line).map_err(|err| err.to_string())? == 0 {
            return Ok(());
        }
        answers.push(line.trim().to_owned());
    }
}
