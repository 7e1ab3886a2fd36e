/** Tailwind CSS v4 through PostCSS (Next.js reads this file). */
export default {
  plugins: { "@tailwindcss/postcss": {} },
};
