/** The Faultline mark and name. */
export function Brand({ className = "px-1.5" }: { className?: string }) {
  return (
    <div className={`flex items-center gap-2 text-[16px] font-bold ${className}`}>
      <span className="inline-grid size-[26px] place-items-center rounded-md bg-accent text-[15px] font-extrabold text-accent-fg" aria-hidden="true">
        F
      </span>
      <span>Faultline</span>
    </div>
  );
}
