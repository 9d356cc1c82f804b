//! Where a string or a number ends in JSON text, found faster than byte by byte: the quick
//! read (`quick`) asks it for every name and value of a body.

/// Whether `byte` ends a number or a literal that the quick read steps over. A `match`, not
/// a search through a list of the delimiters for every byte of every number: with
/// `quote_or_backslash`, the quick read of a 24 KiB call of 12,000 numbers went from
/// 841,907 to 565,669 instructions (callgrind, `quick_request` in a loop).
pub(super) fn ends_scalar(byte: u8) -> bool {
    matches!(
        byte,
        b',' | b':' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'{' | b'[' | b'\\'
    )
}

/// The first `"` or `\\` of `bytes`: the first sixteen bytes eight at a time, where nearly
/// every name and value of a request ends, and the rest with `memchr`, which is faster on
/// long strings but slow to start. With a byte loop for names and `memchr` for skipped
/// strings, the quick read of P8's `get_user` call took 1,828 instructions, with this 1,555
/// (callgrind, `inventory` over HTTP); with `quick_request` in a loop, a 36 KiB call of
/// 3,000 strings 379,970 and 325,725, a 60 KiB string 16,061 and 15,879.
pub(super) fn quote_or_backslash(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const QUOTES: u64 = u64::from_ne_bytes([b'"'; 8]);
    const BACKSLASHES: u64 = u64::from_ne_bytes([b'\\'; 8]);
    // The high bit of each zero byte of `word`, read from the lowest: a borrow can mark a
    // byte above a zero byte too, never one below, so the lowest mark is exact.
    let zero_bytes = |word: u64| word.wrapping_sub(ONES) & !word & HIGHS;
    let mut at = 0;
    while at < 16 {
        let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) else {
            break;
        };
        let word = u64::from_le_bytes(*chunk);
        let found = zero_bytes(word ^ QUOTES) | zero_bytes(word ^ BACKSLASHES);
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    memchr::memchr2(b'"', b'\\', bytes.get(at..)?).map(|found| at + found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_of_a_string_is_found_at_every_offset() {
        // Bytes that the word-at-a-time search could mistake: the quote and backslash
        // each one off, bytes with the high bit set (UTF-8), and zero.
        let fillers = [b'a', b'#', b'!', b']', b'[', 0xa2, 0xdc, 0x00, 0x01, 0xff];
        for length in 0..40 {
            for filler in fillers {
                let plain = vec![filler; length];
                assert_eq!(quote_or_backslash(&plain), None, "{length} of {filler:#x}");
                for end in [b'"', b'\\'] {
                    for at in 0..length {
                        let mut bytes = plain.clone();
                        bytes[at] = end;
                        // A second end after the first is never the one found.
                        if at + 1 < length {
                            bytes[length - 1] = b'"';
                        }
                        assert_eq!(quote_or_backslash(&bytes), Some(at), "{bytes:?}");
                    }
                }
            }
        }
    }
}
