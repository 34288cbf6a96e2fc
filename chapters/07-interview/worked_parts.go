package interview

import (
	"fmt"
	"strings"
)

// The 15-minute form asks in another order than the worked answers, which
// follow the track: its second phase asks for the algorithm (a deep dive
// on the track), its third for the shared state (the design and a deep
// dive), its fourth for failure and the response (a deep dive and the
// wrap-up). data/worked.yaml names, for each prompt and each of the short
// form's phases, the parts of the worked answer that answer it; WorkedShort
// puts them together.

// WorkedPart is one part of a worked answer: a "## " section, or one of
// its "### " subsections, or only the paragraphs of either that open with
// the words given.
type WorkedPart struct {
	Section    string   `yaml:"section"`    // the "## " heading
	Sub        string   `yaml:"sub"`        // a "### " heading inside it, or ""
	Paragraphs []string `yaml:"paragraphs"` // the paragraphs' opening words, in the order shown; none: all
}

// workedMap is one prompt's entry in data/worked.yaml: the parts of each
// phase of the short form, in Skeleton order.
type workedMap struct {
	Prompt string         `yaml:"prompt"`
	Short  [][]WorkedPart `yaml:"short"`
}

// WorkedShort is the part of the worked answer to prompt that answers
// phase (from 0) of the 15-minute form, as Markdown: the parts
// data/worked.yaml names, a whole subsection under its own "### " heading;
// "" when the prompt or the phase is not mapped.
func WorkedShort(prompt string, phase int) string {
	md, ok := WorkedAnswer(prompt)
	if !ok {
		return ""
	}
	for _, w := range loaded.worked {
		if w.Prompt == prompt && phase >= 0 && phase < len(w.Short) {
			var out []string
			for _, p := range w.Short[phase] {
				s, _ := p.text(md)
				out = append(out, s)
			}
			return strings.Join(out, "\n\n")
		}
	}
	return ""
}

// text is the part in the worked answer md; an error names what is not
// there.
func (p WorkedPart) text(md string) (string, error) {
	body := section(md, p.Section)
	if body == "" {
		return "", fmt.Errorf("no section %q", p.Section)
	}
	subs := strings.Split("\n"+body, "\n### ")
	body = strings.TrimSpace(subs[0])
	if p.Sub != "" {
		body = ""
		for _, s := range subs[1:] {
			if title, rest, _ := strings.Cut(s, "\n"); strings.TrimSpace(title) == p.Sub {
				body = strings.TrimSpace(rest)
			}
		}
		if body == "" {
			return "", fmt.Errorf("no subsection %q in %q", p.Sub, p.Section)
		}
		if len(p.Paragraphs) == 0 {
			return "### " + p.Sub + "\n\n" + body, nil
		}
	}
	if len(p.Paragraphs) == 0 {
		return body, nil
	}
	paras := strings.Split(body, "\n\n")
	var out []string
	for _, open := range p.Paragraphs {
		found := ""
		for _, para := range paras {
			if strings.HasPrefix(strings.TrimSpace(para), open) {
				found = strings.TrimSpace(para)
				break
			}
		}
		if found == "" {
			return "", fmt.Errorf("no paragraph opening %q in %q %q", open, p.Section, p.Sub)
		}
		out = append(out, found)
	}
	return strings.Join(out, "\n\n"), nil
}

// worked checks data/worked.yaml: each prompt mapped once, one entry per
// step of the short form, and every part found in its worked answer.
func (k *checker) worked(ws []workedMap, prompts map[string]bool, steps int) {
	const file = "data/worked.yaml"
	seen := map[string]bool{}
	for _, w := range ws {
		if !prompts[w.Prompt] || seen[w.Prompt] {
			k.fail(file, "prompt %q unknown or mapped twice", w.Prompt)
			continue
		}
		seen[w.Prompt] = true
		if len(w.Short) != steps {
			k.fail(file, "prompt %q maps %d phases, want one per Skeleton step (%d)", w.Prompt, len(w.Short), steps)
		}
		b, err := answers.ReadFile(AnswerPath(w.Prompt))
		if err != nil {
			k.fail(file, "prompt %q: %v", w.Prompt, err)
			continue
		}
		for i, parts := range w.Short {
			if len(parts) == 0 {
				k.fail(file, "prompt %q phase %d: no parts", w.Prompt, i+1)
			}
			for _, p := range parts {
				if _, err := p.text(string(b)); err != nil {
					k.fail(file, "prompt %q phase %d: %v", w.Prompt, i+1, err)
				}
			}
		}
	}
	for p := range prompts {
		if !seen[p] {
			k.fail(file, "prompt %q has no entry", p)
		}
	}
}
