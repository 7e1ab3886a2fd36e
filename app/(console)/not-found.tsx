import Link from "next/link";
import * as ui from "@/components/ui/styles";

export default function NotFound() {
  return (
    <div className={ui.empty}>
      <h1 className="text-xl font-[650]">Not found</h1>
      <p>This mission or page does not exist. It may have been mistyped.</p>
      <p>
        <Link className="text-link underline underline-offset-2" href="/missions">
          Back to missions
        </Link>
      </p>
    </div>
  );
}
