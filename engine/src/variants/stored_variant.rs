//! How a game stores its variant: a built-in one by id, with the ids of its pieces in order (so
//! that a later change to the built-in file is noticed rather than misread: stored boards name
//! pieces by their place in that list), any other one spelled out in full.

use crate::variant_file::{Variant, VariantDef};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Stored {
    BuiltIn { built_in: String, pieces: Vec<String> },
    Spelled(Box<VariantDef>),
}

pub fn serialize<S: Serializer>(variant: &Arc<Variant>, serializer: S) -> Result<S::Ok, S::Error> {
    let stored = match crate::variants::built_in_file(&variant.def.id) {
        Some(built_in) if Arc::ptr_eq(&built_in, variant) || *built_in == **variant => Stored::BuiltIn {
            built_in: variant.def.id.clone(),
            pieces: variant.table.ids(),
        },
        _ => Stored::Spelled(Box::new(variant.resolved_def())),
    };
    stored.serialize(serializer)
}

pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Arc<Variant>, D::Error> {
    match Stored::deserialize(deserializer)? {
        Stored::BuiltIn { built_in, pieces } => {
            let variant = crate::variants::built_in_file(&built_in)
                .ok_or_else(|| serde::de::Error::custom(format!("no built-in variant \"{built_in}\"")))?;
            if variant.table.ids() != pieces {
                return Err(serde::de::Error::custom(format!(
                    "the built-in variant \"{built_in}\" has other pieces than when this was stored"
                )));
            }
            Ok(variant)
        }
        Stored::Spelled(def) => Variant::compile(*def).map(Arc::new).map_err(serde::de::Error::custom),
    }
}
