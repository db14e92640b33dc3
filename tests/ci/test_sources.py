"""`.ci/sources.py`: a fresh clone's files get the time since which they have had their content,
and only a completed build's list is kept (`python3 -m unittest discover tests/ci`)."""

import contextlib
import importlib.util
import io
import os
import pathlib
import subprocess
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
SPEC = importlib.util.spec_from_file_location("sources", HERE.parent.parent / ".ci" / "sources.py")
sources = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(sources)


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


class Sources(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="harmonia-sources-"))
        self.repo = self.dir / "clone"
        self.repo.mkdir()
        git(self.repo, "init", "-q")
        git(self.repo, "config", "user.email", "ci@example.invalid")
        git(self.repo, "config", "user.name", "ci")
        (self.repo / "a.rs").write_text("fn a() {}\n")
        (self.repo / "b.rs").write_text("fn b() {}\n")
        (self.repo / "z ż.rs").write_text("fn z() {}\n")
        git(self.repo, "add", ".")
        git(self.repo, "commit", "-qm", "first")
        self.listing = str(self.dir / "target.sources")
        self.cwd = os.getcwd()
        os.chdir(self.repo)

    def tearDown(self):
        os.chdir(self.cwd)
        subprocess.run(["rm", "-rf", str(self.dir)], check=True)

    def run_ci(self, start, completed=True):
        with contextlib.redirect_stdout(io.StringIO()):
            sources.restore(self.listing, start)
        if completed:
            sources.record(self.listing)

    def mtime(self, name):
        return int((self.repo / name).stat().st_mtime)

    def test_without_a_list_every_file_is_as_new_as_the_run(self):
        self.run_ci(1000)
        self.assertEqual([self.mtime(n) for n in ("a.rs", "b.rs", "z ż.rs")], [1000, 1000, 1000])

    def test_an_unchanged_file_keeps_the_time_of_the_run_that_first_saw_it(self):
        self.run_ci(1000)
        (self.repo / "b.rs").write_text("fn b() { 1; }\n")
        git(self.repo, "commit", "-qam", "b changed")
        self.run_ci(2000)
        self.assertEqual((self.mtime("a.rs"), self.mtime("b.rs"), self.mtime("z ż.rs")), (1000, 2000, 1000))
        self.run_ci(3000)
        self.assertEqual((self.mtime("a.rs"), self.mtime("b.rs")), (1000, 2000))

    def test_a_file_edited_in_the_working_tree_counts_as_changed(self):
        self.run_ci(1000)
        (self.repo / "a.rs").write_text("fn a() { 2; }\n")
        self.run_ci(2000)
        self.assertEqual((self.mtime("a.rs"), self.mtime("b.rs")), (2000, 1000))

    def test_a_build_from_an_edited_file_is_not_taken_for_the_committed_one(self):
        self.run_ci(1000)
        (self.repo / "a.rs").write_text("fn a() { 2; }\n")
        self.run_ci(2000)
        git(self.repo, "checkout", "--", "a.rs")
        self.run_ci(3000)
        self.assertEqual((self.mtime("a.rs"), self.mtime("b.rs")), (3000, 1000))

    def test_a_list_that_cannot_be_read_counts_as_none_and_is_never_read_again(self):
        self.run_ci(1000)
        with open(self.listing, "ab") as f:
            f.write(b"not a record")
        self.run_ci(2000, completed=False)
        self.assertFalse(os.path.exists(self.listing))
        self.assertEqual((self.mtime("a.rs"), self.mtime("b.rs")), (2000, 2000))

    def test_a_name_with_a_tab_or_a_line_break_is_kept(self):
        (self.repo / "new\tline\n.rs").write_text("fn n() {}\n")
        git(self.repo, "add", ".")
        git(self.repo, "commit", "-qm", "odd name")
        self.run_ci(1000)
        self.run_ci(2000)
        self.assertEqual((self.mtime("new\tline\n.rs"), self.mtime("a.rs")), (1000, 1000))

    def test_a_list_written_in_another_folder_counts_as_none(self):
        self.run_ci(1000)
        moved = self.dir / "another"
        os.chdir(self.dir)
        os.rename(self.repo, moved)
        self.repo = moved
        os.chdir(moved)
        self.run_ci(2000)
        self.assertEqual((self.mtime("a.rs"), self.mtime("b.rs")), (2000, 2000))
        self.run_ci(3000)
        self.assertEqual((self.mtime("a.rs"), self.mtime("b.rs")), (2000, 2000))

    def test_a_run_whose_build_did_not_complete_leaves_no_list(self):
        self.run_ci(1000)
        self.run_ci(2000, completed=False)
        self.assertFalse(os.path.exists(self.listing))
        self.run_ci(3000)
        self.assertEqual((self.mtime("a.rs"), self.mtime("b.rs")), (3000, 3000))

    def test_a_file_whose_content_came_back_is_new_again(self):
        self.run_ci(1000)
        (self.repo / "a.rs").write_text("fn a() { 2; }\n")
        git(self.repo, "commit", "-qam", "a changed")
        self.run_ci(2000)
        git(self.repo, "revert", "--no-edit", "HEAD")
        self.run_ci(3000)
        self.assertEqual(self.mtime("a.rs"), 3000)


if __name__ == "__main__":
    unittest.main()
