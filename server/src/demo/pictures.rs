//! Pictures for the demo products, drawn here (nothing is fetched): a crate
//! of produce seen from above, in the produce's colours, three arrangements
//! per product for the gallery.

use image::{Rgb, RgbImage};

const WIDTH: u32 = 640;
const HEIGHT: u32 = 480;

/// What a picture shows.
#[derive(Debug, Clone, Copy)]
pub enum Produce {
    Tomatoes,
    CoffeeBeans,
    SweetCorn,
    Avocados,
    GreenBeans,
    Mangoes,
}

/// A small deterministic generator, so the demo looks the same on every start.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as f32) / (u32::MAX >> 1) as f32
    }
}

fn shade(colour: [u8; 3], factor: f32) -> Rgb<u8> {
    Rgb(colour.map(|c| (f32::from(c) * factor).clamp(0.0, 255.0) as u8))
}

/// An ellipse rotated by `angle`, lit from the top left.
fn blob(img: &mut RgbImage, (cx, cy): (f32, f32), (rx, ry): (f32, f32), angle: f32, colour: [u8; 3]) {
    let (sin, cos) = angle.sin_cos();
    let reach = rx.max(ry);
    let (x0, x1) = ((cx - reach).max(0.0) as u32, ((cx + reach) as u32).min(WIDTH - 1));
    let (y0, y1) = ((cy - reach).max(0.0) as u32, ((cy + reach) as u32).min(HEIGHT - 1));
    for y in y0..=y1 {
        for x in x0..=x1 {
            let (dx, dy) = (x as f32 - cx, y as f32 - cy);
            let (u, v) = ((dx * cos + dy * sin) / rx, (-dx * sin + dy * cos) / ry);
            let d = u * u + v * v;
            if d <= 1.0 {
                let light = 1.15 - 0.35 * d - 0.2 * (u + v) * 0.5;
                img.put_pixel(x, y, shade(colour, light));
            }
        }
    }
}

/// A PNG of `produce`; `variant` 0, 1 or 2 changes the arrangement.
pub fn picture(produce: Produce, variant: u64) -> Vec<u8> {
    let mut rng = Lcg(variant * 7919 + produce as u64 * 104729 + 1);
    // A wooden crate: warm planks.
    let mut img = RgbImage::from_fn(WIDTH, HEIGHT, |_, y| {
        let plank = (y / 60) % 2;
        let grain = ((y % 60) as f32 / 60.0) * 0.08;
        shade(if plank == 0 { [176, 132, 86] } else { [160, 118, 76] }, 1.0 - grain)
    });
    let (count, size, colours): (usize, (f32, f32), &[[u8; 3]]) = match produce {
        Produce::Tomatoes => (14, (48.0, 44.0), &[[214, 40, 40], [190, 30, 35], [225, 70, 45]]),
        Produce::CoffeeBeans => (90, (16.0, 11.0), &[[92, 54, 32], [74, 42, 24], [110, 66, 38]]),
        Produce::SweetCorn => (6, (120.0, 34.0), &[[240, 200, 60], [230, 185, 45]]),
        Produce::Avocados => (10, (58.0, 42.0), &[[60, 90, 40], [48, 74, 32], [80, 110, 50]]),
        Produce::GreenBeans => (28, (90.0, 7.0), &[[88, 160, 60], [70, 140, 48], [100, 175, 70]]),
        Produce::Mangoes => (9, (62.0, 44.0), &[[245, 170, 40], [235, 130, 40], [200, 190, 60]]),
    };
    for i in 0..count {
        let colour = colours[i % colours.len()];
        let cx = 40.0 + rng.next() * (WIDTH as f32 - 80.0);
        let cy = 40.0 + rng.next() * (HEIGHT as f32 - 80.0);
        let angle = rng.next() * std::f32::consts::PI;
        let scale = 0.85 + rng.next() * 0.3;
        blob(&mut img, (cx, cy), (size.0 * scale, size.1 * scale), angle, colour);
        match produce {
            // A green calyx on each tomato, a stone's shadow on each avocado, a line on each bean.
            Produce::Tomatoes => blob(&mut img, (cx - 6.0, cy - 10.0), (10.0, 5.0), angle, [40, 110, 40]),
            Produce::Avocados => blob(&mut img, (cx + 8.0, cy + 4.0), (14.0, 12.0), 0.0, [120, 150, 60]),
            Produce::CoffeeBeans => blob(&mut img, (cx, cy), (size.0 * scale * 0.8, 1.5), angle, [50, 28, 16]),
            Produce::SweetCorn => {
                for k in -4..=4 {
                    let (s, c) = angle.sin_cos();
                    blob(
                        &mut img,
                        (cx + c * k as f32 * 24.0, cy + s * k as f32 * 24.0),
                        (9.0, 14.0),
                        angle,
                        [250, 215, 80],
                    );
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .expect("a PNG encodes into memory");
    out
}

/// What a course picture shows (the names used in `demo/courses.json`).
#[derive(Debug, Clone, Copy)]
pub enum Scene {
    /// Green crop rows on a hillside.
    Field,
    /// Market stalls under coloured awnings.
    Market,
    /// Coins on a cloth.
    Coins,
    /// A certificate with a seal.
    Certificate,
    /// Terraced hills with trees.
    Hills,
    /// Sacks of grain in a store.
    Sacks,
    /// Rows planted across a slope, seen from above (a lesson's figure).
    Rows,
}

impl Scene {
    pub fn parse(name: &str) -> Option<Scene> {
        Some(match name {
            "field" => Scene::Field,
            "market" => Scene::Market,
            "coins" => Scene::Coins,
            "certificate" => Scene::Certificate,
            "hills" => Scene::Hills,
            "sacks" => Scene::Sacks,
            "rows" => Scene::Rows,
            _ => return None,
        })
    }
}

fn fill_rect(img: &mut RgbImage, (x0, y0): (u32, u32), (w, h): (u32, u32), colour: [u8; 3]) {
    for y in y0..(y0 + h).min(HEIGHT) {
        for x in x0..(x0 + w).min(WIDTH) {
            img.put_pixel(x, y, Rgb(colour));
        }
    }
}

/// A PNG for a course cover or a lesson's figure.
pub fn scene(scene: Scene) -> Vec<u8> {
    let mut rng = Lcg(scene as u64 * 7907 + 3);
    // Sky above a horizon, earth below, varied by scene.
    let horizon = match scene {
        Scene::Rows => 0,
        Scene::Market | Scene::Coins | Scene::Certificate | Scene::Sacks => 200,
        _ => 170,
    };
    let mut img = RgbImage::from_fn(WIDTH, HEIGHT, |x, y| {
        if y < horizon {
            shade([150, 200, 235], 1.1 - y as f32 / 600.0)
        } else {
            let hill = ((x as f32 / 90.0).sin() * 0.05) + 0.95;
            shade([96, 150, 70], hill - (y - horizon) as f32 / 2000.0)
        }
    });
    match scene {
        Scene::Field | Scene::Hills => {
            blob(&mut img, (520.0, 70.0), (36.0, 36.0), 0.0, [250, 215, 90]);
            for k in 0..9 {
                let y = horizon as f32 + 25.0 + k as f32 * 34.0;
                for x in (0..WIDTH).step_by(6) {
                    let wave = (x as f32 / 70.0 + k as f32).sin() * 8.0;
                    blob(&mut img, (x as f32, y + wave), (5.0, 4.0), 0.0, [52, 110, 40]);
                }
            }
            if matches!(scene, Scene::Hills) {
                for _ in 0..7 {
                    let (x, y) = (30.0 + rng.next() * 580.0, horizon as f32 + 20.0 + rng.next() * 200.0);
                    fill_rect(&mut img, (x as u32, y as u32), (6, 40), [110, 80, 50]);
                    blob(&mut img, (x + 3.0, y - 10.0), (30.0, 26.0), 0.0, [40, 100, 45]);
                }
            }
        }
        Scene::Market => {
            for (i, colour) in [[214, 60, 50], [240, 170, 40], [60, 120, 190], [90, 160, 70]].iter().enumerate() {
                let x = 30 + i as u32 * 150;
                fill_rect(&mut img, (x, 150), (130, 40), *colour);
                fill_rect(&mut img, (x + 10, 190), (110, 120), [170, 130, 85]);
                for j in 0..5 {
                    blob(
                        &mut img,
                        (x as f32 + 25.0 + f32::from(j) * 20.0, 300.0),
                        (12.0, 10.0),
                        0.0,
                        [200, 60 + j * 30, 40],
                    );
                }
            }
        }
        Scene::Coins => {
            fill_rect(&mut img, (60, 220), (520, 220), [170, 50, 60]);
            for _ in 0..14 {
                let (x, y) = (100.0 + rng.next() * 440.0, 250.0 + rng.next() * 160.0);
                blob(&mut img, (x, y), (30.0, 30.0), 0.0, [230, 185, 60]);
                blob(&mut img, (x, y), (18.0, 18.0), 0.0, [245, 205, 90]);
            }
        }
        Scene::Certificate => {
            fill_rect(&mut img, (120, 120), (400, 290), [250, 246, 232]);
            for k in 0..6 {
                fill_rect(&mut img, (170, 170 + k * 30), (300 - k * 20, 8), [150, 150, 150]);
            }
            blob(&mut img, (450.0, 360.0), (38.0, 38.0), 0.0, [40, 120, 60]);
            blob(&mut img, (450.0, 360.0), (24.0, 24.0), 0.0, [240, 200, 70]);
        }
        Scene::Sacks => {
            fill_rect(&mut img, (0, 200), (WIDTH, 280), [150, 120, 90]);
            for i in 0..5 {
                let x = 80.0 + i as f32 * 120.0;
                blob(&mut img, (x, 330.0), (50.0, 80.0), 0.0, [205, 180, 130]);
                fill_rect(&mut img, (x as u32 - 20, 250), (40, 10), [120, 90, 60]);
            }
        }
        Scene::Rows => {
            // Brown earth with rows of plants across the slope; the white arrow points downhill.
            fill_rect(&mut img, (0, 0), (WIDTH, HEIGHT), [150, 110, 70]);
            for row in 0..8 {
                let y = 40.0 + row as f32 * 56.0;
                for k in 0..24 {
                    blob(&mut img, (20.0 + k as f32 * 26.0, y), (9.0, 9.0), 0.0, [60, 140, 50]);
                }
            }
            fill_rect(&mut img, (600, 40), (8, 380), [250, 250, 250]);
            blob(&mut img, (604.0, 430.0), (16.0, 16.0), 0.0, [250, 250, 250]);
        }
    }
    let mut out = Vec::new();
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .expect("a PNG encodes into memory");
    out
}
