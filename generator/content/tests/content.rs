//! The practice's real content meets its brief: no placeholders, long enough, prices and
//! facts as the specification gives them, a description of 120–160 characters for every page.

// Integration tests: a panic is the test failing (clippy.toml allows it only in #[test] code).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use content::markdown::plain_text;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const PLACEHOLDERS: [&str; 8] = [
    "lorem",
    "ipsum",
    "tekst przykładowy",
    "todo",
    "tbd",
    "fixme",
    "placeholder",
    "xxx",
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn content() -> content::Content {
    content::load(&repo_root().join("content")).expect("the real content loads")
}

fn words(sections: &[content::Section]) -> usize {
    sections
        .iter()
        .map(|s| plain_text(&s.content).split_whitespace().count())
        .sum()
}

#[test]
fn no_content_file_holds_placeholder_words() {
    for entry in walkdir::WalkDir::new(repo_root().join("content")) {
        let entry = entry.expect("walk");
        let is_text = entry
            .path()
            .extension()
            .is_some_and(|e| e == "md" || e == "yaml");
        if !is_text {
            continue;
        }
        let text = std::fs::read_to_string(entry.path())
            .expect("read")
            .to_lowercase();
        for word in PLACEHOLDERS {
            let whole_word = text.match_indices(word).any(|(at, _)| {
                let before = text[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_alphanumeric());
                let after = text[at + word.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !c.is_alphanumeric());
                before && after
            });
            assert!(
                !whole_word,
                "{} contains the placeholder '{word}'",
                entry.path().display()
            );
        }
    }
}

#[test]
fn articles_have_at_least_700_words_and_service_pages_400() {
    let c = content();
    let mut counts = BTreeMap::new();
    let mut short = Vec::new();
    for a in &c.articles {
        let n = words(&a.sections);
        counts.insert(format!("/blog/{}", a.slug()), n);
        if n < 700 {
            short.push(format!("/blog/{} has {n} words", a.slug()));
        }
        assert!(
            a.sections
                .iter()
                .any(|s| s.content.contains("\n## ") || s.content.starts_with("## ")),
            "/blog/{} has no subheadings",
            a.slug()
        );
        assert!(
            a.body.contains("](/uslugi/"),
            "/blog/{} links to no service",
            a.slug()
        );
    }
    for s in &c.services {
        let n = words(&s.sections) + s.meta.intro.split_whitespace().count();
        counts.insert(format!("/uslugi/{}", s.slug()), n);
        if n < 400 {
            short.push(format!("/uslugi/{} has {n} words", s.slug()));
        }
    }
    eprintln!("words per page: {counts:#?}");
    assert!(short.is_empty(), "too short: {short:#?}");
}

#[test]
fn every_page_has_its_own_description_of_120_to_160_characters_and_title() {
    let c = content();
    let pages = c.pages.iter().map(|p| {
        (
            p.slug().to_string(),
            p.meta.title.clone(),
            p.meta.description.clone(),
        )
    });
    let services = c.services.iter().map(|s| {
        (
            s.slug().to_string(),
            s.meta.title.clone(),
            s.meta.description.clone(),
        )
    });
    let articles = c.articles.iter().map(|a| {
        (
            a.slug().to_string(),
            a.meta.title.clone(),
            a.meta.description.clone(),
        )
    });
    let mut titles = std::collections::BTreeSet::new();
    let mut descriptions = std::collections::BTreeSet::new();
    // As search engines get it: a price placeholder ({{ cena.terapia-par }}) as its price.
    let facts = content::facts::Facts::new(&c);
    for (slug, title, description) in pages.chain(services).chain(articles) {
        let description = facts.fill_plain(&description);
        let n = description.chars().count();
        assert!(
            (120..=160).contains(&n),
            "{slug}: description has {n} characters"
        );
        assert!(
            descriptions.insert(description),
            "{slug}: description is not unique"
        );
        assert!(titles.insert(title), "{slug}: title is not unique");
    }
}

#[test]
fn prices_and_durations_are_those_of_the_spec() {
    let c = content();
    let row = |name: &str| {
        c.prices
            .items
            .iter()
            .find(|i| i.name == name)
            .unwrap_or_else(|| panic!("no row {name}"))
    };
    let free = row("Bezpłatna rozmowa telefoniczna (do 10 minut)");
    assert_eq!((free.price, free.duration.as_str()), (0, "10 min"));
    for name in [
        "Konsultacja psychologiczna",
        "Konsultacja psychologiczna online",
        "Wsparcie dla młodzieży",
        "Coaching ADHD",
        "Coaching indywidualny",
        "Psychoedukacja",
        "Interwencja kryzysowa",
        "Konsultacje rodzicielskie",
        "Terapia indywidualna",
        "Psychologia sportu",
        "Asertywność i poczucie własnej wartości",
        "Konsultacje dla par: spotkanie z jedną osobą",
        "Diagnoza ADHD: czwarte spotkanie",
    ] {
        let r = row(name);
        assert_eq!(
            (r.price, r.from, r.duration.as_str()),
            (190, false, "50 min"),
            "{name}"
        );
    }
    let couples = row("Konsultacje dla par");
    assert_eq!((couples.price, couples.duration.as_str()), (250, "90 min"));
    let adhd = row("Diagnoza ADHD");
    assert_eq!(
        (adhd.price, adhd.from, adhd.duration.as_str()),
        (500, true, "3 lub 4 spotkania")
    );
    assert_eq!(
        free.link, "/#contact",
        "the free call is not the paid consultation"
    );
    for s in &c.services {
        let route = format!("/uslugi/{}", s.slug());
        assert!(
            c.prices.items.iter().any(|i| i.link == route),
            "{route} has no row in the price list"
        );
    }
    assert_eq!(c.prices.items.len(), 16);
}

/// The sentences of `text`, split after a full stop that ends a sentence (one followed by a
/// space and a capital letter), so that "art. 9 ust. 2 lit. h" stays whole.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        current.push(c);
        if c == '.' {
            let mut ahead = chars.clone();
            if ahead.next() == Some(' ') && ahead.next().is_some_and(char::is_uppercase) {
                out.push(current.trim().to_string());
                current.clear();
            }
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

#[test]
fn the_privacy_policy_says_what_the_contact_clause_says_in_the_same_words() {
    let c = content();
    let policy = std::fs::read_to_string(repo_root().join("content/pages/polityka-prywatnosci.md"))
        .expect("read");
    let clause = sentences(&c.site.contact_clause);
    assert!(clause.len() >= 6, "{clause:#?}");
    for sentence in clause
        .iter()
        .filter(|s| !s.contains("(/polityka-prywatnosci)"))
    {
        assert!(
            policy.contains(sentence.as_str()),
            "the privacy policy does not say, in the same words: {sentence}"
        );
    }
    assert!(
        c.site.contact_clause.contains("art. 9 ust. 2 lit. h")
            && !c.site.contact_clause.contains("lit. a"),
        "health data in messages has one legal basis"
    );
}

#[test]
fn the_crisis_page_says_where_to_go_without_a_referral_and_what_to_put_away() {
    let text =
        std::fs::read_to_string(repo_root().join("content/pages/pilna-pomoc.md")).expect("read");
    for needed in [
        "izba przyjęć szpitala psychiatrycznego przyjmuje bez skierowania",
        "Ośrodek Interwencji Kryzysowej",
        "[797 909 112](tel:+48797909112)",
        "ul. Srebrniki 17",
        "[800 12 12 12](tel:800121212)",
        "Stan na 28.11.2026",
        "Odsuń od siebie to, czym możesz zrobić sobie krzywdę",
        "112",
        "116 123",
        "116 111",
        "800 70 2222",
        "800 120 002",
    ] {
        assert!(text.contains(needed), "/pilna-pomoc lacks '{needed}'");
    }
}

#[test]
fn facts_of_the_spec_appear_where_they_belong() {
    let read = |p: &str| std::fs::read_to_string(repo_root().join(p)).expect("read");
    let adhd = read("content/services/diagnoza-adhd.md");
    for fact in ["DIVA-5", "MOXO", "90–120 minut", "50 minut", "3 lub 4"] {
        assert!(adhd.contains(fact), "diagnoza-adhd lacks {fact}");
    }
    assert!(read("content/services/wsparcie-dla-mlodziezy.md").contains("14–19"));
    assert!(read("content/services/terapia-par.md").contains("90 minut"));
    assert!(read("content/blog/terapia-cbt.md").contains("od 8 do 20"));
    assert!(read("content/services/terapia-indywidualna.md").contains("raz w tygodniu"));
    let crisis = read("content/services/interwencja-kryzysowa.md");
    assert!(crisis.contains("112") && crisis.contains("800 70 2222"));
    let terms = read("content/pages/regulamin.md");
    for fact in [
        "14.12.2026",
        "15 minut",
        "24 godziny",
        "50 zł",
        "BLIK",
        "Gdańsk",
        "50 minut",
        "90 minut",
        "Wzór formularza odstąpienia od umowy",
        "Gabinet zgadza się na pozasądowe rozwiązanie sporu",
        "690 zł",
        "ukończyła 16 lat",
        "ustawy z dnia 8 czerwca 2001 r. o zawodzie psychologa",
    ] {
        assert!(terms.contains(fact), "the terms lack {fact}");
    }
    let privacy = read("content/pages/polityka-prywatnosci.md");
    for section in [
        "§ 6", "§ 7", "§ 8", "§ 9", "§ 10", "§ 11", "§ 12", "Odbiorcy",
    ] {
        assert!(
            privacy.contains(section),
            "the privacy policy lacks {section}"
        );
    }
}

/// A copy of the real `content/` whose files all changed an hour ago: no stamp is racy.
fn settled_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let copy = dir.path().join("content");
    let hour_ago = clock::wall() - std::time::Duration::from_secs(3600);
    for entry in walkdir::WalkDir::new(repo_root().join("content")) {
        let entry = entry.expect("a file of content/");
        let relative = entry
            .path()
            .strip_prefix(repo_root().join("content"))
            .expect("under content/");
        let to = copy.join(relative);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &to).expect("copy");
            let file = std::fs::File::options()
                .write(true)
                .open(&to)
                .expect("open");
            file.set_modified(hour_ago).expect("mtime");
        }
    }
    (dir, copy)
}

fn article_body(content: &content::Content, slug: &str) -> String {
    let doc = content.articles.iter().find(|a| a.id.slug == slug);
    doc.expect("the article").body.to_string()
}

/// What a save does: the file written, the loader told which one with its text.
fn save(
    loader: &mut content::load::Loader,
    dir: &Path,
    file: &Path,
    text: &str,
) -> content::Result<content::Content> {
    std::fs::write(file, text).expect("write");
    let written = content::load::Written {
        path: file.to_path_buf(),
        text: text.to_string(),
    };
    loader.load(dir, content::load::Changes::Written(&written))
}

#[test]
fn load_then_hands_on_its_work_only_when_every_check_passes() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let (_keep, dir) = settled_copy();
    let mut loader = content::load::Loader::default();
    let unknown = content::load::Changes::Unknown;
    let (_, problems, articles) = loader.load_then(&dir, unknown, |c| c.articles.len());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(articles, Some(content().articles.len()));

    // A check across files (a price written out) runs beside the work, which is then dropped.
    let file = dir.join("blog/terapia-cbt.md");
    let original = std::fs::read_to_string(&file).expect("the article");
    std::fs::write(&file, format!("{original}\nPakiet kosztuje 500 zł.\n")).expect("write");
    let ran = AtomicBool::new(false);
    let (content, problems, work) =
        loader.load_then(&dir, unknown, |_| ran.store(true, Ordering::SeqCst));
    assert!(ran.load(Ordering::SeqCst) && work.is_none() && content.is_some());
    assert!(
        problems.iter().any(|p| p.to_string().contains("500")),
        "{problems:?}"
    );

    // A document with a problem of its own: the work does not even start.
    std::fs::write(
        &file,
        format!("{original}\nCena to {{{{ nieznany_fakt }}}}.\n"),
    )
    .expect("write");
    let ran = AtomicBool::new(false);
    let (_, problems, work) =
        loader.load_then(&dir, unknown, |_| ran.store(true, Ordering::SeqCst));
    assert!(!ran.load(Ordering::SeqCst) && work.is_none());
    assert!(
        problems
            .iter()
            .any(|p| p.to_string().contains("nieznany_fakt")),
        "{problems:?}"
    );
}

#[test]
fn a_told_edit_of_one_article_loads_like_a_full_load_and_its_problems_are_found() {
    let (_keep, dir) = settled_copy();
    let mut loader = content::load::Loader::default();
    let first = loader
        .load(&dir, content::load::Changes::Unknown)
        .expect("the real content loads");
    let file = dir.join("blog/terapia-cbt.md");
    let original = std::fs::read_to_string(&file).expect("the article");

    // An edit without a problem: the new text, the other documents as they were.
    let edited = format!("{original}\nAkapit dopisany w panelu.\n");
    let after = save(&mut loader, &dir, &file, &edited).expect("loads");
    assert!(article_body(&after, "terapia-cbt").ends_with("Akapit dopisany w panelu.\n"));
    assert_eq!(after.articles.len(), first.articles.len());
    let full = content::load(&dir).expect("a full load");
    for (told, looked) in after.articles.iter().zip(&full.articles) {
        assert_eq!((&told.id, &told.body), (&looked.id, &looked.body));
    }

    // An edit with a problem of its own is refused at its line; fixed, it loads again.
    let broken = format!("{original}\nCena to {{{{ nieznany_fakt }}}}.\n");
    let refused = save(&mut loader, &dir, &file, &broken).expect_err("an unknown fact");
    assert!(refused.to_string().contains("nieznany_fakt"), "{refused}");
    save(&mut loader, &dir, &file, &edited).expect("loads again");
    // A price written out instead of its placeholder: the price checks see the edit too.
    let priced = format!("{original}\nPakiet kosztuje 500 zł.\n");
    let refused = save(&mut loader, &dir, &file, &priced).expect_err("a literal price");
    assert!(refused.to_string().contains("500"), "{refused}");
    let again = save(&mut loader, &dir, &file, &edited).expect("loads again");
    assert_eq!(
        article_body(&again, "terapia-cbt"),
        article_body(&after, "terapia-cbt")
    );
}

#[test]
fn a_file_read_in_the_second_it_changed_is_read_again_by_a_load_told_of_another() {
    let (_keep, dir) = settled_copy();
    let mut loader = content::load::Loader::default();
    let racy = dir.join("blog/terapia-cbt.md");
    let original = std::fs::read_to_string(&racy).expect("the article");
    let first = original.replacen("cognitive behavioural", "COGNITIVE behavioural", 1);
    std::fs::write(&racy, &first).expect("write");
    let stamp = std::fs::metadata(&racy)
        .and_then(|m| m.modified())
        .expect("mtime");
    loader
        .load(&dir, content::load::Changes::Unknown)
        .expect("loads");
    // Written again in the same instant, with as many bytes: its stamp cannot tell.
    let second = original.replacen("cognitive behavioural", "cognitive BEHAVIOURAL", 1);
    assert_eq!(first.len(), second.len());
    std::fs::write(&racy, &second).expect("write");
    let file = std::fs::File::options()
        .write(true)
        .open(&racy)
        .expect("open");
    file.set_modified(stamp).expect("mtime");

    let other = dir.join("blog/terapia-online.md");
    let text = std::fs::read_to_string(&other).expect("another article");
    let loaded = save(&mut loader, &dir, &other, &text).expect("loads");
    let body = article_body(&loaded, "terapia-cbt");
    assert!(
        body.contains("cognitive BEHAVIOURAL"),
        "the second text is loaded"
    );
    assert!(!body.contains("COGNITIVE"), "not the first");
}
