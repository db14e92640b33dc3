// Every island by name: the SSR entry renders from here, and each browser entry mounts one.
import type { ComponentType } from "react";
import AdminPanel from "./islands/AdminPanel";
import BookingButton from "./islands/BookingButton";
import ContactForm from "./islands/ContactForm";

export const islands: Record<string, ComponentType<any>> = {
  AdminPanel,
  BookingButton,
  ContactForm,
};
