//! Files published as they are: the stylesheet and scripts under `templates/assets/` with a
//! content hash in their names, `templates/static/` and `content/images/` unchanged.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

use crate::error::{Error, Result};
use crate::output::Output;
use content::encoding::hex;
use content::walk;

/// Content-hashed assets: `assets/style.css` becomes `assets/style.<hash>.css`, with the
/// rules of the pictures' focal points after its own. Returns the public address of each by
/// its source name, and the files.
pub(crate) fn hashed(dir: &Path) -> Result<(BTreeMap<String, String>, Vec<Output>)> {
    let mut map = BTreeMap::new();
    let mut outputs = Vec::new();
    for found in walk::files(dir, dir)? {
        let mut bytes = found.read().map_err(|e| Error::read(&found.path, e))?;
        let name = found.relative;
        if name == "style.css" {
            bytes.extend(crate::images::focus_rules().into_bytes());
        }
        let hash = hex(&Sha256::digest(&bytes)[..5]);
        let hashed = match name.rsplit_once('.') {
            Some((stem, ext)) => format!("{stem}.{hash}.{ext}"),
            None => format!("{name}.{hash}"),
        };
        map.insert(name, format!("/assets/{hashed}"));
        outputs.push(Output::new(format!("assets/{hashed}"), bytes));
    }
    Ok((map, outputs))
}

/// Every file under `dir`, published under `prefix` as it is.
pub(crate) fn copied(dir: &Path, prefix: &str) -> Result<Vec<Output>> {
    walk::files(dir, dir)?
        .into_iter()
        .map(|found| {
            let bytes = found.read().map_err(|e| Error::read(&found.path, e))?;
            Ok(Output::new(format!("{prefix}{}", found.relative), bytes))
        })
        .collect()
}
