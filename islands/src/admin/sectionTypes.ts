// The section types the site's templates know, by the Polish names the owner chooses them by
// (defined once in Rust: content::sections::TYPES). Any other type renders as 'Tekst'.

export { DEFAULT_SECTION_TYPE, SECTION_TYPES } from "../generated/schema";
