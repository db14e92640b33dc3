//! A preview renders one document from unsaved text with the build's renderer: marked,
//! not indexed, its islands filled, without scripts, and nothing written anywhere.

use crate::common;
use common::Fixture;
use content::DocId;
use editing::Editor;
use site::render::PREVIEW_MARK;
use site::Builder;

fn snapshot(f: &Fixture) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut all: Vec<_> = walkdir::WalkDir::new(f.root())
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter(|e| !e.path().components().any(|c| c.as_os_str() == "ssr-cache"))
        .map(|e| {
            (
                e.path().to_path_buf(),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect();
    all.sort();
    all
}

#[test]
fn a_preview_shows_the_unsaved_text_marked_and_writes_nothing() {
    let f = Fixture::real_site();
    let project = f.project();
    let editor = Editor::new(&project.content_dir);
    let build = Builder::new(project.clone()).render().expect("builds");
    let before = snapshot(&f);
    let id = DocId::parse("services/terapia-par").expect("id");
    let doc = editor.editable(&id, 0).expect("read").expect("there");
    let mut sections = doc.content.sections.clone();
    sections[0].content = "Tekst, którego jeszcze nie zapisano.".into();
    let mut settings = doc.settings.clone();
    settings.title = "Terapia par – nowy tytuł".into();
    let text = editor
        .edited_text(&id, &sections, Some(&settings))
        .expect("edited")
        .expect("there");
    let preview = build
        .renderer
        .preview(&id, &text)
        .expect("renders")
        .expect("a page");
    let html = &preview.html;
    assert!(html.contains("Tekst, którego jeszcze nie zapisano."));
    assert!(html.contains("Terapia par – nowy tytuł"));
    assert!(html.contains(&format!("<strong>{PREVIEW_MARK}</strong>")));
    assert!(html.contains(r#"<meta name="robots" content="noindex, nofollow">"#));
    assert!(!html.contains("<!--island:"), "islands are prerendered");
    assert!(html.contains("data-island=\"BookingButton\""));
    assert!(
        !html.contains("<script"),
        "a preview is shown sandboxed: no script at all"
    );
    assert!(preview.problems.is_empty(), "{:?}", preview.problems);
    assert_eq!(
        snapshot(&f),
        before,
        "nothing in content/, templates/ or islands/ changed"
    );
    let live = build
        .outputs
        .iter()
        .find(|o| o.path == "uslugi/terapia-par/index.html")
        .expect("the built page");
    assert!(!String::from_utf8_lossy(&live.bytes).contains("jeszcze nie zapisano"));
}

#[test]
fn a_preview_names_what_a_save_would_be_refused_for() {
    let f = Fixture::real_site();
    let project = f.project();
    let editor = Editor::new(&project.content_dir);
    let build = Builder::new(project.clone()).render().expect("builds");
    let id = DocId::parse("blog/terapia-cbt").expect("id");
    let doc = editor.editable(&id, 0).expect("read").expect("there");
    let mut sections = doc.content.sections.clone();
    sections[0].content = "Zobacz [to](/nie-ma-takiej-strony). Sesja kosztuje 190zł.".into();
    let text = editor
        .edited_text(&id, &sections, None)
        .expect("ok")
        .expect("there");
    let preview = build
        .renderer
        .preview(&id, &text)
        .expect("renders")
        .expect("a page");
    assert!(preview.html.contains("Sesja kosztuje 190zł."));
    let messages: Vec<String> = preview
        .problems
        .iter()
        .map(|d| d.polish(&editor.content_dir, Some((&d.file, &text))))
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("Sekcja 1: link „/nie-ma-takiej-strony”")),
        "{messages:#?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("zł”: między liczbą a jednostką")),
        "{messages:#?}"
    );
}

#[test]
fn an_unpublished_article_can_be_previewed() {
    let f = Fixture::real_site();
    let project = f.project();
    let editor = Editor::new(&project.content_dir);
    editor
        .create_article(
            "szkic",
            "Szkic artykułu",
            "2025-11-20",
            "Magdalena Wiśniewska",
        )
        .expect("created");
    let build = Builder::new(project.clone()).render().expect("builds");
    assert!(!build
        .outputs
        .iter()
        .any(|o| o.path.starts_with("blog/szkic")));
    let id = DocId::parse("blog/szkic").expect("id");
    let text = std::fs::read_to_string(editor.file_of(&id).expect("file")).expect("read");
    let preview = build
        .renderer
        .preview(&id, &text)
        .expect("renders")
        .expect("a page");
    assert!(preview.html.contains("<h1>Szkic artykułu</h1>"));
}
