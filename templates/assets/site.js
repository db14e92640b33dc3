// Mobile menu: opens from the hamburger, closes on its close button, any link, the booking
// button or Escape; focus moves into the menu and back to the hamburger.
(function () {
  var toggle = document.querySelector(".menu-toggle");
  var menu = document.getElementById("mobile-menu");
  if (!toggle || !menu) return;
  var close = menu.querySelector(".menu-close");

  function setOpen(open) {
    menu.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    document.body.style.overflow = open ? "hidden" : "";
    (open ? close : toggle).focus();
  }

  toggle.addEventListener("click", function () { setOpen(true); });
  close.addEventListener("click", function () { setOpen(false); });
  menu.addEventListener("click", function (e) {
    if (e.target.closest("a")) setOpen(false);
  });
  menu.addEventListener("keydown", function (e) {
    if (e.key === "Escape") return setOpen(false);
    if (e.key !== "Tab") return;
    var items = menu.querySelectorAll("a, button");
    var first = items[0], last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  });
})();
