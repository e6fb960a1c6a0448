package play

import (
	"fmt"
	"strings"

	"evolved/game/draughts"
)

// pieceGlyphs draws men and kings: [black man, black king, white man, white king].
var (
	unicodeGlyphs = [4]string{"●", "◆", "○", "◇"}
	asciiGlyphs   = [4]string{"b", "B", "w", "W"}
)

// drawDraughts returns the board as text: eight rows from Black's side
// (square 1 at the top) with file letters and rank numbers, and beside each
// row the numbers of its playable squares.
func drawDraughts(p draughts.Position, ascii bool) string {
	glyphs := unicodeGlyphs
	if ascii {
		glyphs = asciiGlyphs
	}
	var b strings.Builder
	b.WriteString("     a b c d e f g h\n")
	for row := range 8 {
		fmt.Fprintf(&b, "  %d ", 8-row)
		var numbers []string
		for col := range 8 {
			if (row+col)%2 == 0 {
				b.WriteString("  ") // a light square: never used
				continue
			}
			sq := row*4 + col/2 // bit index; square number sq+1
			numbers = append(numbers, fmt.Sprintf("%2d", sq+1))
			bit := uint32(1) << sq
			g := " ."
			switch {
			case p.Black&bit != 0 && p.Kings&bit != 0:
				g = " " + glyphs[1]
			case p.Black&bit != 0:
				g = " " + glyphs[0]
			case p.White&bit != 0 && p.Kings&bit != 0:
				g = " " + glyphs[3]
			case p.White&bit != 0:
				g = " " + glyphs[2]
			}
			b.WriteString(g)
		}
		fmt.Fprintf(&b, "    %s\n", strings.Join(numbers, " "))
	}
	return b.String()
}
