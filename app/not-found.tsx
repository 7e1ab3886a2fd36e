import Link from "next/link";
import * as ui from "@/components/ui/styles";

export default function NotFound() {
  return (
    <main className={ui.standalone.page} id="main">
      <div className={ui.standalone.card}>
        <h1 className="text-xl font-[650]">Not found</h1>
        <p>This page does not exist. It may have been mistyped.</p>
        <p>
          <Link className="text-link underline underline-offset-2" href="/missions">
            Go to missions
          </Link>
        </p>
      </div>
    </main>
  );
}
