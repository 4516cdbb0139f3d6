//! The crops prices, menus and alerts name (docs/prices.md): each a word of the
//! produce vocabulary, read in any of the three languages.

use crate::labels::Lang;
use crate::model::price::PriceUnit;
use crate::model::produce_words;
use crate::model::product::{Category, Unit};

/// A crop the menus offer: its word in the produce vocabulary (its group's
/// first, English, word; `crops.<key>` names it), its category and usual unit.
#[derive(Debug, PartialEq, Eq)]
pub struct Crop {
    pub key: &'static str,
    pub category: Category,
    pub unit: Unit,
}

const fn new_crop(key: &'static str, category: Category, unit: Unit) -> Crop {
    Crop { key, category, unit }
}

/// South Kivu's main crops, most grown first.
pub const CROPS: &[Crop] = &[
    new_crop("maize", Category::Grains, Unit::Kg),
    new_crop("bean", Category::Grains, Unit::Kg),
    new_crop("cassava", Category::Vegetables, Unit::Kg),
    new_crop("banana", Category::Fruits, Unit::Piece),
    new_crop("potato", Category::Vegetables, Unit::Kg),
    new_crop("rice", Category::Grains, Unit::Kg),
    new_crop("sorghum", Category::Grains, Unit::Kg),
    new_crop("groundnut", Category::Grains, Unit::Kg),
    new_crop("soybean", Category::Grains, Unit::Kg),
    new_crop("tomato", Category::Vegetables, Unit::Kg),
    new_crop("onion", Category::Vegetables, Unit::Kg),
    new_crop("cabbage", Category::Vegetables, Unit::Piece),
    new_crop("avocado", Category::Fruits, Unit::Piece),
    new_crop("coffee", Category::Beverages, Unit::Kg),
];

impl Crop {
    pub fn name(&self, lang: Lang) -> String {
        lang.text(&format!("crops.{}", self.key))
    }

    /// Whether a product known by `names` (lower case, folded) is this crop:
    /// one of its words is there, not as part of another produce's name
    /// ("soybean" is no bean).
    pub fn names(&self, names: &str) -> bool {
        let names = crate::model::product::fold(names);
        produce_words::equivalents(self.key).iter().any(|word| {
            let rest = produce_words::inside_other_names(word)
                .iter()
                .fold(names.clone(), |rest, other| rest.replace(other, " "));
            rest.contains(word.as_str())
        })
    }
}

/// The crop a typed word names, in any of the three languages ("MAIS", "mahindi", "beans").
pub fn crop_named(word: &str) -> Option<&'static Crop> {
    let word = crate::model::product::fold(word.trim());
    if word.is_empty() {
        return None;
    }
    let words = produce_words::equivalents(&word);
    CROPS.iter().find(|crop| words.iter().any(|w| w == crop.key))
}

impl Crop {
    /// The unit its prices' medians are of: a listing's usual unit.
    pub fn base_unit(&self) -> PriceUnit {
        match self.unit {
            Unit::Kg => PriceUnit::Kg,
            Unit::Piece => PriceUnit::Piece,
        }
    }
}

/// A crop by its key.
pub fn crop(key: &str) -> Option<&'static Crop> {
    CROPS.iter().find(|c| c.key == key)
}

/// The crop a product known by `names` is, if any.
pub fn crop_of_names(names: &str) -> Option<&'static Crop> {
    CROPS.iter().find(|c| c.names(names))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_crop_is_a_word_of_the_vocabulary_and_named_in_each_language() {
        for crop in CROPS {
            assert!(produce_words::equivalents(crop.key).len() >= 3, "{}: a produce word", crop.key);
            for code in crate::labels::LANGUAGES {
                let name = crop.name(Lang::parse(Some(code)));
                assert!(!name.starts_with("crops."), "{code}: crops.{} missing", crop.key);
                assert_eq!(crop_named(&name).map(|c| c.key), Some(crop.key), "{code}: {name} names {}", crop.key);
            }
        }
    }

    #[test]
    fn a_crop_is_found_in_names_but_not_inside_another_produce() {
        let bean = crop_named("beans").unwrap();
        assert!(bean.names("haricots rouges de kabare"));
        assert!(bean.names("maharage"));
        assert!(!bean.names("soybean from uvira"), "soybeans are not beans");
        assert!(!bean.names("arabica coffee bean"));
        assert_eq!(crop_named("MAIS").map(|c| c.key), Some("maize"));
        assert_eq!(crop_named("mahindi").map(|c| c.key), Some("maize"));
        assert!(crop_named("car").is_none());
    }
}
