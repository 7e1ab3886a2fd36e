import { redirect } from "next/navigation";

/** /account: the tokens page is the one people come back to; the password page is linked from it. */
export default function AccountPage() {
  redirect("/account/tokens");
}
