//! GIF's LZW compression of a frame's palette indices, made for replays. It writes codes the
//! way the `gif` crate's encoder does (the same widths, clear codes and padding), but keeps its
//! dictionary in a small hash table that stays in the processor's cache, and walks a
//! run of one index (a replay frame is mostly "unchanged") to the longest run the dictionary
//! knows at once instead of a byte at a time.

/// Codes are at most 12 bits wide.
const MOST_CODES: u16 = 4096;
/// Slots of the dictionary's hash table: a power of two, about twice the most entries.
const SLOTS: usize = 8192;
const EMPTY: u32 = u32::MAX;

/// LZW-compresses palette indices as a GIF image block's data: the minimum code size, then
/// the packed codes (as `gif::Frame::make_lzw_pre_encoded` does; its encoder loses the 17th
/// string to follow any one string, so its bytes differ from these a little once that happens).
pub fn encode(indices: &[u8]) -> Vec<u8> {
    let mut encoder = Encoder::new(min_code_size(indices), indices.len());
    // The code of the longest string matched so far.
    let mut current: Option<u16> = None;
    let mut at = 0;
    while let Some(&byte) = indices.get(at) {
        at += 1;
        let Some(prefix) = current else {
            current = Some(u16::from(byte));
            continue;
        };
        // A run of `byte` going on: matched byte by byte, it would grow to the longest run of
        // `byte` the dictionary holds, or to the run's end.
        if encoder.runs.length_of(prefix, byte) > 0 {
            // Enough of the run to know how far the dictionary can follow it, no more.
            let enough = encoder.runs.longest_known(byte);
            let same = 1 + indices[at..].iter().take(enough).take_while(|&&b| b == byte).count();
            let (code, used) = encoder.runs.longest(prefix, byte, same);
            if used > 0 {
                at += used - 1;
                current = Some(code);
                continue;
            }
        }
        match encoder.find(prefix, byte) {
            Some(found) => current = Some(found),
            None => {
                encoder.miss(prefix, byte);
                current = Some(u16::from(byte));
            }
        }
    }
    encoder.finish(current)
}

/// The `gif` crate's choice: the fewest bits that hold the largest index, at least 2 (and 8
/// as soon as an index above 127 is seen).
fn min_code_size(indices: &[u8]) -> u8 {
    let mut largest = 0u8;
    for &byte in indices {
        if byte > largest {
            largest = byte;
            if byte > 127 {
                break;
            }
        }
    }
    (u32::from(largest) + 1).max(4).next_power_of_two().trailing_zeros() as u8
}

struct Encoder {
    min_size: u8,
    clear: u16,
    /// Bits per code now.
    size: u8,
    /// The code the next entry gets.
    next: u16,
    /// Entries as (prefix code << 8 | byte) and their codes, by hash.
    keys: Box<[u32; SLOTS]>,
    codes: Box<[u16; SLOTS]>,
    runs: Runs,
    out: Vec<u8>,
    bits: u64,
    bit_count: u8,
}

impl Encoder {
    fn new(min_size: u8, length: usize) -> Encoder {
        let clear = 1u16 << min_size;
        let mut out = Vec::with_capacity(length / 4 + 16);
        out.push(min_size);
        let mut encoder = Encoder {
            min_size,
            clear,
            size: min_size + 1,
            next: clear + 2,
            keys: Box::new([EMPTY; SLOTS]),
            codes: Box::new([0; SLOTS]),
            runs: Runs::new(),
            out,
            bits: 0,
            bit_count: 0,
        };
        encoder.emit(clear);
        encoder
    }

    fn slot(key: u32) -> usize {
        (key.wrapping_mul(0x9e37_79b1) >> 19) as usize & (SLOTS - 1)
    }

    /// The code of `prefix` followed by `byte`, if the dictionary holds it.
    fn find(&self, prefix: u16, byte: u8) -> Option<u16> {
        let key = u32::from(prefix) << 8 | u32::from(byte);
        let mut slot = Encoder::slot(key);
        loop {
            match self.keys[slot] {
                EMPTY => return None,
                found if found == key => return Some(self.codes[slot]),
                _ => slot = (slot + 1) & (SLOTS - 1),
            }
        }
    }

    /// `prefix` followed by `byte` is not in the dictionary: writes `prefix`, adds the new
    /// entry, widens the codes or starts afresh when the table is full.
    fn miss(&mut self, prefix: u16, byte: u8) {
        let code = self.next;
        self.next += 1;
        let key = u32::from(prefix) << 8 | u32::from(byte);
        let mut slot = Encoder::slot(key);
        while self.keys[slot] != EMPTY {
            slot = (slot + 1) & (SLOTS - 1);
        }
        self.keys[slot] = key;
        self.codes[slot] = code;
        self.runs.added(prefix, byte, code);
        self.emit(prefix);
        if self.next > 1 << self.size && self.size < 12 {
            self.size += 1;
        }
        if self.next > MOST_CODES {
            self.emit(self.clear);
            self.keys.fill(EMPTY);
            self.runs = Runs::new();
            self.next = self.clear + 2;
            self.size = self.min_size + 1;
        }
    }

    fn emit(&mut self, code: u16) {
        self.bits |= u64::from(code) << self.bit_count;
        self.bit_count += self.size;
        while self.bit_count >= 8 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.bit_count -= 8;
        }
    }

    /// Writes the code matched last, the end code and the last bits.
    fn finish(mut self, current: Option<u16>) -> Vec<u8> {
        if let Some(code) = current {
            self.emit(code);
            // Reading that code, a decoder adds one more entry, and may widen its codes for it.
            if self.next >= 1 << self.size && self.size < 12 {
                self.size += 1;
            }
        }
        self.emit(self.clear + 1);
        if self.bit_count > 0 {
            self.out.push(self.bits as u8);
        }
        self.out
    }
}

/// The dictionary's runs of one byte: a run's entries are made one byte longer at a time, so
/// for each byte the dictionary holds it repeated 1, 2, 3... times up to some longest run.
struct Runs {
    /// For each code: the byte it repeats, plus one (0 for a code that is no run).
    byte_of: Box<[u16; MOST_CODES as usize + 1]>,
    /// For each code that is a run: how long.
    length: Box<[u16; MOST_CODES as usize + 1]>,
    /// For each byte: the codes of its runs, by length less one.
    codes: Vec<Vec<u16>>,
}

impl Runs {
    fn new() -> Runs {
        let mut runs = Runs {
            byte_of: Box::new([0; MOST_CODES as usize + 1]),
            length: Box::new([0; MOST_CODES as usize + 1]),
            codes: (0..=255u16).map(|byte| vec![byte]).collect(),
        };
        for byte in 0..=255u16 {
            runs.byte_of[usize::from(byte)] = byte + 1;
            runs.length[usize::from(byte)] = 1;
        }
        runs
    }

    /// How long a run of `byte` `code` is (0 when it is none).
    fn length_of(&self, code: u16, byte: u8) -> usize {
        if self.byte_of[usize::from(code)] == u16::from(byte) + 1 {
            usize::from(self.length[usize::from(code)])
        } else {
            0
        }
    }

    /// How long the longest run of `byte` the dictionary holds is.
    fn longest_known(&self, byte: u8) -> usize {
        self.codes[usize::from(byte)].len()
    }

    /// From `code` (a run of `byte`) and `same` more bytes of it: the code of the longest run
    /// of `byte` the dictionary holds within the two, and how many of the `same` bytes it used.
    fn longest(&self, code: u16, byte: u8, same: usize) -> (u16, usize) {
        let codes = &self.codes[usize::from(byte)];
        let had = self.length_of(code, byte);
        let length = (had + same).min(codes.len());
        if length <= had {
            return (code, 0);
        }
        (codes[length - 1], length - had)
    }

    /// Notes the new entry `code`, `prefix` followed by `byte`, if it is a run.
    fn added(&mut self, prefix: u16, byte: u8, code: u16) {
        let length = self.length_of(prefix, byte);
        if length > 0 && usize::from(code) < self.byte_of.len() {
            self.byte_of[usize::from(code)] = u16::from(byte) + 1;
            self.length[usize::from(code)] = length as u16 + 1;
            self.codes[usize::from(byte)].push(code);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `indices` compressed by the `gif` crate's encoder, or by this one, in a GIF of one frame,
    /// and read back by the `gif` crate's decoder.
    fn round_trip(indices: &[u8], ours: bool) -> (Vec<u8>, usize) {
        let width = 1000u16;
        let height = indices.len().div_ceil(1000).max(1) as u16;
        let mut padded = indices.to_vec();
        padded.resize(usize::from(width) * usize::from(height), 0);
        let mut frame = gif::Frame {
            width,
            height,
            buffer: padded.clone().into(),
            ..gif::Frame::default()
        };
        if ours {
            frame.buffer = encode(&padded).into();
        } else {
            frame.make_lzw_pre_encoded();
        }
        let compressed = frame.buffer.len();
        let mut bytes = Vec::new();
        {
            let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
            let mut encoder = gif::Encoder::new(&mut bytes, width, height, &palette).unwrap();
            encoder.write_lzw_pre_encoded_frame(&frame).unwrap();
        }
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(bytes.as_slice()).unwrap();
        let decoded = decoder.read_next_frame().unwrap().unwrap().buffer.to_vec();
        assert_eq!(decoded, padded, "read back as written");
        (decoded, compressed)
    }

    /// Indices like a replay's: long runs of "unchanged" (255), flat squares, soft edges, and
    /// noise, from a simple generator.
    fn sample(length: usize, seed: u32, alphabet: u8) -> Vec<u8> {
        let mut state = seed.max(1);
        let mut out = Vec::with_capacity(length);
        while out.len() < length {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let run = match state % 7 {
                0..=2 => 1,
                3 | 4 => (state >> 8) as usize % 20,
                _ => (state >> 8) as usize % 3000,
            };
            let byte = match (state >> 20) % 4 {
                0 => 255,
                _ => ((state >> 12) % u32::from(alphabet)) as u8,
            };
            out.extend(std::iter::repeat_n(byte, run.min(length - out.len())));
        }
        out
    }

    #[test]
    fn a_decoder_reads_back_every_index_and_the_size_is_the_gif_crates() {
        let mut inputs: Vec<Vec<u8>> = vec![
            Vec::new(),
            vec![7],
            vec![255; 100_000],
            vec![3; 5],
            (0..=255).collect(),
            (0..200_000u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
                .collect(),
        ];
        for seed in 1..40 {
            inputs.push(sample(
                20_000 + seed as usize * 3_000,
                seed,
                2 + (seed * 37 % 250) as u8,
            ));
            inputs.push(sample(5_000, seed, 12).into_iter().map(|b| b % 13).collect());
        }
        for (number, input) in inputs.iter().enumerate() {
            let (_, ours) = round_trip(input, true);
            let (_, theirs) = round_trip(input, false);
            assert!(
                ours.abs_diff(theirs) * 50 <= theirs + 50,
                "input {number}: {ours} bytes against {theirs}"
            );
        }
    }
}
